/**
 * Ingress validation as kube-apiserver applies it: a default backend or rules, hosts (DNS names,
 * wildcards, no IPs), HTTP paths by path type, backends (a service with a port name or number, or
 * a resource), TLS hosts and secret names, the class name, and on create the legacy class
 * annotation agreeing with `ingressClassName`.
 */
import type { FieldError } from "../../api/status.js";
import {
  arr,
  invalid,
  isSet,
  type Json,
  notSupported,
  obj,
  required,
  str,
  strs,
} from "../../validation/field-errors.js";
import {
  portNameProblems,
  portNumberProblems,
  wildcardSubdomainProblems,
} from "../../validation/format-rules.js";
import { parseIpSloppy } from "../../validation/ip-rules.js";
import {
  ingressHostnameErrors,
  ingressIpErrors,
  loadBalancerIngress,
  storedIngressIps,
} from "../../validation/load-balancer.js";
import {
  dns1035LabelProblems,
  dns1123LabelProblems,
  dns1123SubdomainProblems,
  pathSegment,
} from "../../validation/name-formats.js";

const PATH_TYPES = ["Exact", "ImplementationSpecific", "Prefix"];
const BAD_SEQUENCES = ["//", "/./", "/../", "%2f", "%2F"];
const BAD_SUFFIXES = ["/..", "/."];
const CLASS_ANNOTATION = "kubernetes.io/ingress.class";

const problemsAt = (field: string, value: string, problems: string[]): FieldError[] =>
  problems.map((m) => invalid(field, value, m));

/** A typed local object reference (a resource backend). */
export function resourceRefErrors(ref: Json, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(ref.apiGroup))
    errs.push(
      ...problemsAt(`${field}.apiGroup`, str(ref.apiGroup), dns1123SubdomainProblems(str(ref.apiGroup))),
    );
  for (const key of ["kind", "name"]) {
    const v = str(ref[key]);
    if (v === "") errs.push(required(`${field}.${key}`));
    else errs.push(...problemsAt(`${field}.${key}`, v, pathSegment(v, false)));
  }
  return errs;
}

function backendErrors(backend: Json, field: string, relaxedNames: boolean): FieldError[] {
  const hasResource = isSet(backend.resource);
  const hasService = isSet(backend.service);
  if (hasResource && hasService) return [invalid(field, "", "cannot set both resource and service backends")];
  if (hasResource) return resourceRefErrors(obj(backend.resource), `${field}.resource`);
  if (!hasService) return [invalid(field, "", "resource or service backend is required")];
  const service = obj(backend.service);
  const errs: FieldError[] = [];
  const name = str(service.name);
  if (name === "") errs.push(required(`${field}.service.name`));
  else
    errs.push(
      ...problemsAt(
        `${field}.service.name`,
        name,
        relaxedNames ? dns1123LabelProblems(name) : dns1035LabelProblems(name),
      ),
    );
  const port = obj(service.port);
  const portName = str(port.name);
  const portNumber = typeof port.number === "number" ? port.number : 0;
  if (portName !== "" && portNumber !== 0)
    errs.push(invalid(field, "", "cannot set both port name & port number"));
  else if (portName !== "")
    errs.push(...problemsAt(`${field}.service.port.name`, portName, portNameProblems(portName)));
  else if (portNumber !== 0)
    errs.push(
      ...portNumberProblems(portNumber).map((m) => invalid(`${field}.service.port.number`, portNumber, m)),
    );
  else errs.push(required(field, "port name or number is required"));
  return errs;
}

function pathErrors(p: Json, field: string, relaxedNames: boolean): FieldError[] {
  if (!isSet(p.pathType)) return [required(`${field}.pathType`, "pathType must be specified")];
  const pathType = str(p.pathType);
  const path = str(p.path);
  const errs: FieldError[] = [];
  if (pathType === "Exact" || pathType === "Prefix") {
    if (!path.startsWith("/")) errs.push(invalid(`${field}.path`, path, "must be an absolute path"));
    for (const seq of BAD_SEQUENCES)
      if (path.includes(seq)) errs.push(invalid(`${field}.path`, path, `must not contain '${seq}'`));
    for (const suffix of BAD_SUFFIXES)
      if (path.endsWith(suffix)) errs.push(invalid(`${field}.path`, path, `cannot end with '${suffix}'`));
  } else if (pathType === "ImplementationSpecific") {
    if (path !== "" && !path.startsWith("/"))
      errs.push(invalid(`${field}.path`, path, "must be an absolute path"));
  } else errs.push(notSupported(`${field}.pathType`, pathType, PATH_TYPES));
  errs.push(...backendErrors(obj(p.backend), `${field}.backend`, relaxedNames));
  return errs;
}

function hostErrors(host: string, field: string): FieldError[] {
  return host.includes("*")
    ? problemsAt(field, host, wildcardSubdomainProblems(host))
    : problemsAt(field, host, dns1123SubdomainProblems(host));
}

function ruleErrors(rule: Json, field: string, relaxedNames: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const host = str(rule.host);
  if (host !== "") {
    if (parseIpSloppy(host))
      errs.push(invalid(`${field}.host`, host, "must be a DNS name, not an IP address"));
    errs.push(...hostErrors(host, `${field}.host`));
  }
  if (isSet(rule.http)) {
    const paths = arr(obj(rule.http).paths);
    if (paths.length === 0) errs.push(required(`${field}.http.paths`));
    paths.forEach((p, i) => {
      errs.push(...pathErrors(obj(p), `${field}.http.paths[${i}]`, relaxedNames));
    });
  }
  return errs;
}

function tlsErrors(tls: unknown[]): FieldError[] {
  return tls.flatMap((t, i) => {
    const entry = obj(t);
    const errs = strs(entry.hosts).flatMap((h, j) => hostErrors(h, `spec.tls[${i}].hosts[${j}]`));
    const secret = str(entry.secretName);
    if (secret !== "")
      errs.push(...problemsAt(`spec.tls[${i}].secretName`, secret, dns1123SubdomainProblems(secret)));
    return errs;
  });
}

export function ingressErrors(ingress: Json, old: Json | undefined): FieldError[] {
  const spec = obj(ingress.spec);
  // The RelaxedServiceNameValidation gate is on in 1.37: service names are DNS labels.
  const relaxedNames = true;
  const errs: FieldError[] = [];
  const rules = arr(spec.rules);
  if (rules.length === 0 && !isSet(spec.defaultBackend))
    errs.push(
      invalid(
        "spec",
        rules.length === 0 && spec.rules === undefined ? null : [],
        "either `defaultBackend` or `rules` must be specified",
      ),
    );
  if (isSet(spec.defaultBackend))
    errs.push(...backendErrors(obj(spec.defaultBackend), "spec.defaultBackend", relaxedNames));
  rules.forEach((r, i) => {
    errs.push(...ruleErrors(obj(r), `spec.rules[${i}]`, relaxedNames));
  });
  errs.push(...tlsErrors(arr(spec.tls)));
  if (isSet(spec.ingressClassName)) {
    const name = str(spec.ingressClassName);
    errs.push(...problemsAt("spec.ingressClassName", name, dns1123SubdomainProblems(name)));
  }
  const annotation = obj(obj(ingress.metadata).annotations)[CLASS_ANNOTATION];
  if (
    !old &&
    typeof annotation === "string" &&
    isSet(spec.ingressClassName) &&
    annotation !== spec.ingressClassName
  )
    errs.push(
      invalid(
        `annotations.${CLASS_ANNOTATION}`,
        annotation,
        "must match `ingressClassName` when both are specified",
      ),
    );
  return errs;
}

/** A /status write: load-balancer addresses (a stored one may stay) and DNS hostnames that are no IPs. */
export function ingressStatusErrors(ingress: Json, old: Json): FieldError[] {
  const oldIps = storedIngressIps(old);
  return loadBalancerIngress(ingress).flatMap((e, i) => [
    ...ingressIpErrors(e, `status.loadBalancer.ingress[${i}]`, oldIps),
    ...ingressHostnameErrors(e, `status.loadBalancer.ingress[${i}]`),
  ]);
}
