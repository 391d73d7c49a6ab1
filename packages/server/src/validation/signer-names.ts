/**
 * Signer names as core validation checks them: `<domain>/<path>`, the domain a DNS name of at least
 * two labels, each path label a DNS subdomain, bounded lengths.
 */
import type { FieldError } from "../api/status.js";
import { invalid, required, tooLong } from "./field-errors.js";
import { dns1123LabelProblems, dns1123SubdomainProblems } from "./name-formats.js";

const MAX_DOMAIN = 253;
const MAX_PATH = 253 + 63 + 1;

function labelErrors(
  field: string,
  segment: string,
  labels: string[],
  check: (l: string) => string[],
): FieldError[] {
  for (const label of labels) {
    const problems = check(label);
    if (problems.length > 0)
      return problems.map((m) => invalid(field, segment, `validating label ${JSON.stringify(label)}: ${m}`));
  }
  return [];
}

export function signerNameErrors(field: string, signerName: string): FieldError[] {
  if (signerName === "") return [required(field)];
  const segments = signerName.split("/");
  if (segments.length !== 2)
    return [
      invalid(
        field,
        signerName,
        "must be a fully qualified domain and path of the form 'example.com/signer-name'",
      ),
    ];
  const [domain, path] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > MAX_DOMAIN) errs.push(tooLong(field, MAX_DOMAIN));
  const domainLabels = domain.split(".");
  errs.push(...labelErrors(field, domain, domainLabels, dns1123LabelProblems));
  if (domainLabels.length < 2)
    errs.push(invalid(field, domain, "should be a domain with at least two segments separated by dots"));
  errs.push(...labelErrors(field, path, path.split("."), dns1123SubdomainProblems));
  if (signerName.length > MAX_DOMAIN + MAX_PATH + 1) errs.push(tooLong(field, MAX_DOMAIN + MAX_PATH + 1));
  return errs;
}
