/**
 * String and number formats apimachinery checks spec fields against, with its messages: port
 * numbers and names, percentages, wildcard DNS subdomains, domain-prefixed paths, int-or-percent
 * values. Each answers upstream's problem strings or field errors (empty when valid).
 */
import type { FieldError } from "../api/status.js";
import { invalid, required } from "./field-errors.js";
import { dns1123SubdomainProblems, regexError } from "./name-formats.js";

export const inclusiveRange = (lo: number, hi: number): string =>
  `must be between ${lo} and ${hi}, inclusive`;
export const NEGATIVE = "must be greater than or equal to 0";

export function portNumberProblems(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRange(1, 65535)];
}

export function portNameProblems(port: string): string[] {
  const out: string[] = [];
  if (port.length > 15) out.push("must be no more than 15 characters");
  if (!/^[-a-z0-9]+$/.test(port))
    out.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!/[a-z]/.test(port)) out.push("must contain at least one letter (a-z)");
  if (port.includes("--")) out.push("must not contain consecutive hyphens");
  if (port.startsWith("-") || port.endsWith("-")) out.push("must not begin or end with a hyphen");
  return out;
}

const PERCENT = "[0-9]+%";
export function percentProblems(value: string): string[] {
  return /^[0-9]+%$/.test(value)
    ? []
    : [
        regexError(
          "a valid percent string must be a numeric string followed by an ending '%'",
          PERCENT,
          "1%",
          "93%",
        ),
      ];
}

const SUBDOMAIN = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const WILDCARD = `\\*\\.${SUBDOMAIN}`;
const WILDCARD_RE = new RegExp(`^${WILDCARD}$`);
export function wildcardSubdomainProblems(value: string): string[] {
  const out: string[] = [];
  if (value.length > 253) out.push("must be no more than 253 characters");
  if (!WILDCARD_RE.test(value))
    out.push(
      regexError(
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
        WILDCARD,
        "*.example.com",
      ),
    );
  return out;
}

const HTTP_PATH = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_RE = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;
/** apimachinery's IsDomainPrefixedPath: `example.com/some/path`. */
export function domainPrefixedPathErrors(field: string, value: string): FieldError[] {
  if (value === "") return [required(field)];
  const slash = value.indexOf("/");
  if (slash <= 0 || slash === value.length - 1)
    return [invalid(field, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = value.slice(0, slash);
  const path = value.slice(slash + 1);
  const errs = dns1123SubdomainProblems(host).map((m) => invalid(field, host, m));
  if (!HTTP_PATH_RE.test(path)) errs.push(invalid(field, path, regexError("Invalid path", HTTP_PATH)));
  return errs;
}

/** An intstr.IntOrString as decoded JSON: a number or a string. */
export type IntOrString = number | string;

/** apps validation's ValidatePositiveIntOrPercent and IsNotMoreThan100Percent together. */
export function intOrPercentErrors(field: string, value: IntOrString): FieldError[] {
  if (typeof value === "string") {
    const problems = percentProblems(value);
    if (problems.length > 0) return problems.map((m) => invalid(field, value, m));
    const pct = Number.parseInt(value.slice(0, -1), 10);
    return pct > 100 ? [invalid(field, value, "must not be greater than 100%")] : [];
  }
  return value < 0 ? [invalid(field, value, NEGATIVE)] : [];
}
