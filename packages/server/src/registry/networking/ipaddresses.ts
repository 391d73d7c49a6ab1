/** IPAddresses: the parent reference names a resource and an object, and never changes. */
import type { FieldError } from "../../api/status.js";
import {
  FieldErrors,
  immutable,
  invalid,
  isSet,
  type Json,
  obj,
  required,
  sameValue,
  str,
} from "../../validation/field-errors.js";
import { dns1123SubdomainProblems, pathSegment } from "../../validation/name-formats.js";
import type { KindStrategy } from "../strategy.js";

function parentRefErrors(ref: Json, out: FieldErrors): void {
  const field = "spec.parentRef";
  const group = str(ref.group);
  if (group !== "")
    out.add(...dns1123SubdomainProblems(group).map((m) => invalid(`${field}.group`, group, m)));
  for (const key of ["resource", "name"]) {
    const v = str(ref[key]);
    if (v === "") out.covered(required(`${field}.${key}`));
    else out.add(...pathSegment(v, false).map((m) => invalid(`${field}.${key}`, v, m)));
  }
  const ns = str(ref.namespace);
  if (ns !== "") out.add(...pathSegment(ns, false).map((m) => invalid(`${field}.namespace`, ns, m)));
}

function ipAddressErrors(ip: Json, old: Json | undefined): FieldError[] {
  const out = new FieldErrors();
  const spec = obj(ip.spec);
  if (old) {
    if (!sameValue(spec.parentRef, obj(old.spec).parentRef)) out.covered(immutable("spec.parentRef", null));
    return out.list();
  }
  if (!isSet(spec.parentRef)) out.covered(required("spec.parentRef"));
  else parentRefErrors(obj(spec.parentRef), out);
  return out.list();
}

export const ipaddresses: KindStrategy = {
  group: "networking.k8s.io",
  resource: "ipaddresses",
  validate: ipAddressErrors,
};
