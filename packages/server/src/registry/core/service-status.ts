/**
 * A Service's /status write as kube-apiserver 1.37 validates it (ValidateServiceStatusUpdate):
 * load-balancer ingress only on LoadBalancer services; each entry's address (load-balancer.ts), an
 * `ipMode` exactly when an IP is set and a known one.
 */
import {
  type FieldError,
  forbidden,
  type Json,
  notSupported,
  obj,
  required,
  str,
} from "../../validation/field-errors.js";
import {
  ingressHostnameErrors,
  ingressIpErrors,
  loadBalancerIngress,
  storedIngressIps,
} from "../../validation/load-balancer.js";

const IP_MODES = ["Proxy", "VIP"];

function ipModeErrors(entry: Json, field: string): FieldError[] {
  const hasIp = str(entry.ip) !== "";
  const mode = entry.ipMode;
  if (mode === undefined || mode === null)
    return hasIp ? [required(`${field}.ipMode`, "must be specified when `ip` is set")] : [];
  if (!hasIp) return [forbidden(`${field}.ipMode`, "may not be specified when `ip` is not set")];
  return IP_MODES.includes(str(mode)) ? [] : [notSupported(`${field}.ipMode`, mode, IP_MODES)];
}

export function serviceStatusErrors(svc: Json, old: Json | undefined): FieldError[] {
  const ingress = loadBalancerIngress(svc);
  const at = "status.loadBalancer.ingress";
  if (ingress.length > 0 && obj(svc.spec).type !== "LoadBalancer")
    return [forbidden(at, "may only be used when `spec.type` is 'LoadBalancer'")];
  const oldIps = storedIngressIps(old);
  return ingress.flatMap((e, i) => [
    ...ingressIpErrors(e, `${at}[${i}]`, oldIps),
    ...ipModeErrors(e, `${at}[${i}]`),
    ...ingressHostnameErrors(e, `${at}[${i}]`),
  ]);
}
