/** Shape checks for ResourceInfo entries handed to the registry at run time. */
import { ModelsError } from "./errors.js";
import type { ResourceInfo } from "./resource-info.js";

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function validateResourceInfo(value: unknown, where: string): asserts value is ResourceInfo {
  const fail = (field: string, problem: string): never => {
    throw new ModelsError("INVALID_RESOURCE_INFO", `${where}: ${field} ${problem}`);
  };
  if (typeof value !== "object" || value === null) fail("entry", "must be an object");
  const r = value as Record<string, unknown>;
  if (typeof r.group !== "string") fail("group", "must be a string");
  for (const field of ["version", "kind", "plural", "singular"] as const) {
    if (typeof r[field] !== "string" || r[field] === "") fail(field, "must be a non-empty string");
  }
  if (!dns1123Label.test(r.plural as string))
    fail("plural", `"${String(r.plural)}" is not a lowercase DNS label`);
  if (r.listKind !== undefined && typeof r.listKind !== "string") fail("listKind", "must be a string");
  if (typeof r.namespaced !== "boolean") fail("namespaced", "must be a boolean");
  for (const field of ["verbs", "shortNames", "categories"] as const) {
    if (!isStringArray(r[field])) fail(field, "must be an array of strings");
  }
  if (!Array.isArray(r.subresources)) fail("subresources", "must be an array");
  (r.subresources as unknown[]).forEach((sub, i) => {
    const s = sub as Record<string, unknown> | null;
    const at = `subresources[${i}]`;
    if (typeof s !== "object" || s === null) fail(at, "must be an object");
    const entry = s as Record<string, unknown>;
    if (typeof entry.name !== "string" || entry.name === "") fail(`${at}.name`, "must be a non-empty string");
    if (typeof entry.kind !== "string" || entry.kind === "") fail(`${at}.kind`, "must be a non-empty string");
    if (!isStringArray(entry.verbs)) fail(`${at}.verbs`, "must be an array of strings");
  });
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}
