/**
 * ServiceCIDRs: one or two canonical CIDRs, at most one per IP family; an update may only add a
 * second family to a single CIDR.
 */
import type { FieldError } from "../../api/status.js";
import { immutable, invalid, type Json, obj, required, strs } from "../../validation/field-errors.js";
import { cidrErrors, cidrFamily } from "../../validation/ip-rules.js";
import { type KindStrategy, RESET_FOR_STATUS } from "../strategy.js";

const FIELD = "spec.cidrs";

function cidrListErrors(spec: Json): FieldError[] {
  const cidrs = strs(spec.cidrs);
  if (cidrs.length === 0) return [required(FIELD, "at least one CIDR required")];
  if (cidrs.length > 2) return [invalid(FIELD, { CIDRs: cidrs }, "may only hold up to 2 values")];
  const errs = cidrs.flatMap((c, i) => cidrErrors(`${FIELD}[${i}]`, c));
  const [a, b] = cidrs;
  if (b !== undefined && cidrFamily(a as string) === cidrFamily(b) && cidrFamily(b) !== "")
    errs.push(
      invalid(
        FIELD,
        cidrs,
        "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64",
      ),
    );
  return errs;
}

function updateErrors(now: string[], before: string[], spec: Json): FieldError[] {
  if (now.length === before.length)
    return now.flatMap((c, i) => (c === before[i] ? [] : [immutable(`${FIELD}[${i}]`, c)]));
  if (before.length === 1 && now.length === 2)
    return [...(now[0] === before[0] ? [] : [immutable(`${FIELD}[0]`, now[0])]), ...cidrListErrors(spec)];
  return [immutable(FIELD, now)];
}

export const servicecidrs: KindStrategy = {
  group: "networking.k8s.io",
  resource: "servicecidrs",
  statusResetsMetadata: RESET_FOR_STATUS,
  validate(obj_, old, subresource) {
    const spec = obj(obj_.spec);
    if (!old) return cidrListErrors(spec);
    // A status write is checked for its metadata only (the spec is the stored one).
    if (subresource === "status") return [];
    return updateErrors(strs(spec.cidrs), strs(obj(old.spec).cidrs), spec);
  },
};
