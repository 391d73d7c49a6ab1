/**
 * A pod's sysctls (validateSysctls upstream): each named, the name a dotted or slashed sequence of
 * lower-case segments of at most 253 characters, no name twice.
 */
import { duplicate, type FieldError, invalid, listAt, obj, required, str } from "./field-errors.js";

const SEGMENT = "[a-z0-9]([-_a-z0-9]*[a-z0-9])?";
const NAME_PATTERN = `^(${SEGMENT}[\\./])*${SEGMENT}$`;
const NAME_RE = new RegExp(NAME_PATTERN);
const NAME_MAX = 253;
const NAME_DETAIL = `must have at most ${NAME_MAX} characters and match regex ${NAME_PATTERN}`;

export function sysctlErrors(sysctls: unknown, at: string): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  listAt(sysctls).forEach((raw, i) => {
    const name = str(obj(raw).name);
    const field = `${at}[${i}].name`;
    if (name === "") out.push(required(field));
    else if (name.length > NAME_MAX || !NAME_RE.test(name)) out.push(invalid(field, name, NAME_DETAIL));
    else if (seen.has(name)) out.push(duplicate(field, name));
    seen.add(name);
  });
  return out;
}
