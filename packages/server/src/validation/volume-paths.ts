/**
 * The path rules of volumes and mounts: no `..` element, relative paths, no leading `..`, and
 * file modes within 0777.
 */
import { type FieldError, invalid } from "./field-errors.js";

/** validatePathNoBacksteps: one error however many `..` elements there are. */
export const noBacksteps = (path: string, field: string): FieldError[] =>
  path.split("/").includes("..") ? [invalid(field, path, "must not contain '..'")] : [];

/** validateLocalDescendingPath: relative, without `..` elements. */
export function localDescendingErrors(path: string, field: string): FieldError[] {
  const out = path.startsWith("/") ? [invalid(field, path, "must be a relative path")] : [];
  return [...out, ...noBacksteps(path, field)];
}

/** ValidateLocalNonReservedPath: also not starting with `..` (unless `../`, already reported). */
export function localNonReservedErrors(path: string, field: string): FieldError[] {
  const out = localDescendingErrors(path, field);
  if (path.startsWith("..") && !path.startsWith("../"))
    out.push(invalid(field, path, "must not start with '..'"));
  return out;
}

const FILE_MODE = "must be a number between 0 and 0777 (octal), both inclusive";

/** A file mode (defaultMode, mode) when set. */
export const fileModeErrors = (mode: unknown, field: string): FieldError[] =>
  typeof mode === "number" && (mode < 0 || mode > 0o777) ? [invalid(field, mode, FILE_MODE)] : [];
