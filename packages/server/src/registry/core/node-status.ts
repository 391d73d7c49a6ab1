/**
 * A Node's /status write as kube-apiserver 1.37 checks it (ValidateNodeUpdate's status parts):
 * capacity and allocatable quantities are not negative and whole for integer resources (each named
 * as a child field, `status.capacity.cpu`, as upstream names them), and no address is listed twice.
 * Upstream checks nothing else of a node's status (conditions, node info, endpoints are free).
 */
import { duplicate, type FieldError, type Json, obj, str } from "../../validation/field-errors.js";
import { quantityValueErrors } from "../../validation/resources.js";

function quantitiesErrors(list: unknown, at: string): FieldError[] {
  return Object.entries(obj(list)).flatMap(([name, q]) =>
    quantityValueErrors(name, typeof q === "number" ? String(q) : str(q), `${at}.${name}`),
  );
}

function addressErrors(addresses: unknown): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  (Array.isArray(addresses) ? addresses : []).forEach((raw, i) => {
    const a = obj(raw);
    // Upstream shows the internal struct, which has no JSON tags: Go's field names.
    const shown = { Type: str(a.type), Address: str(a.address) };
    const key = JSON.stringify(shown);
    if (seen.has(key)) out.push(duplicate(`status.addresses[${i}]`, shown));
    seen.add(key);
  });
  return out;
}

export function nodeStatusErrors(node: Json): FieldError[] {
  const status = obj(node.status);
  return [
    ...quantitiesErrors(status.capacity, "status.capacity"),
    ...quantitiesErrors(status.allocatable, "status.allocatable"),
    ...addressErrors(status.addresses),
  ];
}
