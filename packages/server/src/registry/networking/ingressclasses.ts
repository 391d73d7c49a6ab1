/**
 * IngressClasses: the controller is a domain-prefixed path of at most 250 bytes and immutable; the
 * parameters reference names its kind, name and scope (a namespace exactly when the scope is Namespace).
 */
import type { FieldError } from "../../api/status.js";
import {
  FieldErrors,
  forbidden,
  immutable,
  invalid,
  isSet,
  type Json,
  notSupported,
  obj,
  required,
  str,
  tooLong,
} from "../../validation/field-errors.js";
import { domainPrefixedPathErrors } from "../../validation/format-rules.js";
import {
  dns1123LabelProblems,
  dns1123SubdomainProblems,
  pathSegment,
} from "../../validation/name-formats.js";
import { isObj } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

const SCOPES = ["Cluster", "Namespace"];

function parametersErrors(params: Json, out: FieldErrors): void {
  const field = "spec.parameters";
  if (isSet(params.apiGroup))
    out.add(
      ...dns1123SubdomainProblems(str(params.apiGroup)).map((m) =>
        invalid(`${field}.apiGroup`, params.apiGroup, m),
      ),
    );
  for (const key of ["kind", "name"]) {
    const v = str(params[key]);
    if (v === "") out.covered(required(`${field}.${key}`));
    else out.add(...pathSegment(v, false).map((m) => invalid(`${field}.${key}`, v, m)));
  }
  if (!isSet(params.scope)) {
    out.add(required(`${field}.scope`));
    return;
  }
  const scope = str(params.scope);
  if (!SCOPES.includes(scope)) out.add(notSupported(`${field}.scope`, scope, SCOPES));
  else if (scope === "Namespace") {
    if (!isSet(params.namespace))
      out.add(required(`${field}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    else {
      const ns = str(params.namespace);
      out.add(...dns1123LabelProblems(ns).map((m) => invalid(`${field}.namespace`, ns, m)));
    }
  } else if (isSet(params.namespace))
    out.add(forbidden(`${field}.namespace`, "`parameters.scope` is set to 'Cluster'"));
}

function ingressClassErrors(ic: Json, old: Json | undefined): FieldError[] {
  const spec = obj(ic.spec);
  const out = new FieldErrors();
  const controller = str(spec.controller);
  if (old && controller !== str(obj(old.spec).controller)) out.add(immutable("spec.controller", controller));
  if (Buffer.byteLength(controller) > 250) out.add(tooLong("spec.controller", 250));
  out.add(...domainPrefixedPathErrors("spec.controller", controller));
  if (isSet(spec.parameters)) parametersErrors(obj(spec.parameters), out);
  return out.list();
}

export const ingressclasses: KindStrategy = {
  group: "networking.k8s.io",
  resource: "ingressclasses",
  // networking/v1 defaulting: a parameters reference without a scope is cluster-scoped.
  defaults(ic) {
    const params = obj(ic.spec).parameters;
    if (isObj(params) && !isSet(params.scope)) params.scope = "Cluster";
  },
  validate: ingressClassErrors,
};
