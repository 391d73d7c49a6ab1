/**
 * Dynamic resource allocation in a pod: `spec.resourceClaims` (unique DNS-label names, exactly one
 * of a claim or a claim template, each a subdomain name) and the claims a container's resources
 * use (a pod claim, optionally one request of it, each used once).
 */
import {
  duplicate,
  type FieldError,
  goStruct,
  invalid,
  type Json,
  listAt,
  notFound,
  objectAt,
  required,
  stringAt,
} from "./field-errors.js";
import { dns1123LabelProblems, dns1123SubdomainProblems } from "./name-formats.js";

const label = (value: string, field: string) =>
  dns1123LabelProblems(value).map((m) => invalid(field, value, m));
const subdomain = (value: unknown, field: string) =>
  typeof value === "string" ? dns1123SubdomainProblems(value).map((m) => invalid(field, value, m)) : [];

/** The names of the pod's claims that are set (valid or not). */
export const podClaimNames = (claims: unknown): Set<string> =>
  new Set(
    listAt(claims)
      .map((c) => stringAt(objectAt(c).name))
      .filter((n) => n !== ""),
  );

/** validatePodResourceClaims. */
export function podResourceClaimErrors(claims: unknown, at: string): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  listAt(claims).forEach((raw, i) => {
    const c = objectAt(raw);
    const path = `${at}[${i}]`;
    const name = stringAt(c.name);
    if (name === "") out.push(required(`${path}.name`));
    else if (seen.has(name)) out.push(duplicate(`${path}.name`, name));
    else {
      out.push(...label(name, `${path}.name`));
      seen.add(name);
    }
    const shown = goStruct([
      ["Name", name],
      ["ResourceClaimName", c.resourceClaimName ?? null],
      ["ResourceClaimTemplateName", c.resourceClaimTemplateName ?? null],
    ]);
    const hasClaim = typeof c.resourceClaimName === "string";
    const hasTemplate = typeof c.resourceClaimTemplateName === "string";
    if (hasClaim && hasTemplate)
      out.push(
        invalid(
          path,
          shown,
          "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified",
        ),
      );
    if (!hasClaim && !hasTemplate)
      out.push(invalid(path, shown, "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"));
    out.push(...subdomain(c.resourceClaimName, `${path}.resourceClaimName`));
    out.push(...subdomain(c.resourceClaimTemplateName, `${path}.resourceClaimTemplateName`));
  });
  return out;
}

function unknownClaim(field: string, name: string, known: ReadonlySet<string>): FieldError {
  const names = [...known].sort();
  const detail = `must be one of the names in pod.spec.resourceClaims${names.length === 0 ? " which is empty" : `: ${names.join(", ")}`}`;
  return { ...notFound(field, name), detail };
}

/** A container's resources.claims: a claim is used whole or per request, never both, each once. */
export function containerClaimErrors(claims: unknown, at: string, known: ReadonlySet<string>): FieldError[] {
  const out: FieldError[] = [];
  const keys = new Set<string>();
  const whole = new Set<string>();
  const perRequest = new Set<string>();
  listAt(claims).forEach((raw, i) => {
    const c: Json = objectAt(raw);
    const path = `${at}[${i}]`;
    const name = stringAt(c.name);
    if (name === "") {
      out.push(required(path));
      return;
    }
    const request = stringAt(c.request);
    const key = request === "" ? name : `${name}/${request}`;
    if (keys.has(key)) out.push(duplicate(path, key));
    else if (request === "" ? perRequest.has(name) : whole.has(name)) out.push(duplicate(path, name));
    else if (request !== "") out.push(...label(request, `${path}.request`));
    keys.add(key);
    (request === "" ? whole : perRequest).add(name);
    if (!known.has(name)) out.push(unknownClaim(path, name, known));
  });
  return out;
}
