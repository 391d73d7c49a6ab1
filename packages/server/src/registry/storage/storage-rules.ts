/**
 * Rules storage.k8s.io kinds share, as kube-apiserver applies them: CSI driver names, provisioner
 * names and parameters, node names.
 */
import type { FieldError } from "../../api/status.js";
import { type FieldErrors, invalid, obj, required, tooLong } from "../../validation/field-errors.js";
import { dns1123SubdomainProblems } from "../../validation/name-formats.js";
import { qualifiedNameProblems } from "../../validation/object-meta.js";

/** How apimachinery's core ValidateCSIDriverName reports; `covered` when the kind checks it declaratively. */
export function csiDriverNameErrors(name: string, field: string, out: FieldErrors, covered = false): void {
  const push = (e: FieldError) => (covered ? out.covered(e) : out.add(e));
  if (name === "") {
    push(required(field));
    return;
  }
  // The declarative length check counts characters in its message.
  if (name.length > 63)
    push(
      covered ? { ...tooLong(field, 63), detail: "may not be more than 63 characters" } : tooLong(field, 63),
    );
  const problems = dns1123SubdomainProblems(name.toLowerCase());
  // The declarative check words the same rule for names of any case.
  for (const m of covered ? problems.map(caseless) : problems) push(invalid(field, name, m));
}

export function provisionerErrors(provisioner: string, field: string, out: FieldErrors): void {
  if (provisioner === "") out.covered(required(field));
  else
    out.add(
      ...qualifiedNameProblems(provisioner.toLowerCase()).map((m) =>
        invalid(field, provisioner.toLowerCase(), m),
      ),
    );
}

const MAX_PARAMETERS = 512;
const MAX_PARAMETER_BYTES = 256 * 1024;

export function parametersErrors(params: unknown, allowEmpty: boolean, field: string): FieldError[] {
  const entries = Object.entries(obj(params));
  if (entries.length > MAX_PARAMETERS) return [tooLong(field, MAX_PARAMETERS)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k === "") errs.push(invalid(field, k, "field can not be empty."));
    size += Buffer.byteLength(k) + Buffer.byteLength(typeof v === "string" ? v : "");
  }
  if (size > MAX_PARAMETER_BYTES) errs.push(tooLong(field, MAX_PARAMETER_BYTES));
  if (!allowEmpty && entries.length === 0)
    errs.push(required(field, "must contain at least one key/value pair"));
  return errs;
}

function caseless(problem: string): string {
  return problem
    .replace(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric",
      "an RFC 1123 subdomain must consist of alphanumeric",
    )
    .replace("'example.com'", "'Example.com'")
    .replace("253 characters", "253 bytes");
}
