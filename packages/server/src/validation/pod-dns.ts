/**
 * A pod's DNS settings and host aliases: `dnsPolicy: None` needs a config with a nameserver; at
 * most 3 nameservers, each an IP address; at most 32 search domains of at most 2048 characters in
 * all, each a subdomain that may hold underscores (a trailing dot allowed); named options; host
 * alias IPs and hostnames.
 */
import {
  type FieldError,
  invalid,
  isObject,
  type Json,
  listAt,
  objectAt,
  required,
  stringAt,
} from "./field-errors.js";
import { legacyIpErrors } from "./ip-rules.js";
import { bytesOf, dns1123SubdomainProblems, regexError } from "./name-formats.js";

const MAX_NAMESERVERS = 3;
const MAX_SEARCHES = 32;
const MAX_SEARCH_CHARS = 2048;

const UNDERSCORE_LABEL = "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?";
const UNDERSCORE_SUBDOMAIN = `${UNDERSCORE_LABEL}(\\.${UNDERSCORE_LABEL})*`;
const UNDERSCORE_RE = new RegExp(`^${UNDERSCORE_SUBDOMAIN}$`);

/** IsDNS1123SubdomainWithUnderscore. */
function underscoreSubdomainProblems(value: string): string[] {
  const out: string[] = [];
  if (bytesOf(value) > 253) out.push("must be no more than 253 characters");
  if (!UNDERSCORE_RE.test(value))
    out.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
        UNDERSCORE_SUBDOMAIN,
        "example.com",
      ),
    );
  return out;
}

function searchErrors(searches: string[], at: string): FieldError[] {
  const out: FieldError[] = [];
  if (searches.length > MAX_SEARCHES)
    out.push(invalid(at, searches, `must not have more than ${MAX_SEARCHES} search paths`));
  if (searches.join(" ").length > MAX_SEARCH_CHARS)
    out.push(
      invalid(
        at,
        searches,
        `must not have more than ${MAX_SEARCH_CHARS} characters (including spaces) in the search list`,
      ),
    );
  searches.forEach((search, i) => {
    if (search === ".") return;
    const trimmed = search.endsWith(".") ? search.slice(0, -1) : search;
    out.push(...underscoreSubdomainProblems(trimmed).map((m) => invalid(`${at}[${i}]`, trimmed, m)));
  });
  return out;
}

/** validatePodDNSConfig. */
export function dnsConfigErrors(spec: Json, at: string): FieldError[] {
  const config = spec.dnsConfig;
  const nameservers = listAt(objectAt(config).nameservers).map(stringAt);
  if (spec.dnsPolicy === "None") {
    if (!isObject(config)) return [required(at, "must provide `dnsConfig` when `dnsPolicy` is None")];
    if (nameservers.length === 0)
      return [
        required(`${at}.nameservers`, "must provide at least one DNS nameserver when `dnsPolicy` is None"),
      ];
  }
  if (!isObject(config)) return [];
  const out: FieldError[] = [];
  if (nameservers.length > MAX_NAMESERVERS)
    out.push(
      invalid(`${at}.nameservers`, nameservers, `must not have more than ${MAX_NAMESERVERS} nameservers`),
    );
  nameservers.forEach((ns, i) => {
    out.push(...legacyIpErrors(`${at}.nameservers[${i}]`, ns));
  });
  out.push(...searchErrors(listAt(config.searches).map(stringAt), `${at}.searches`));
  listAt(config.options).forEach((o, i) => {
    if (stringAt(objectAt(o).name) === "") out.push(required(`${at}.options[${i}]`, "must not be empty"));
  });
  return out;
}

/** ValidateHostAliases. */
export function hostAliasErrors(aliases: unknown, at: string): FieldError[] {
  const out: FieldError[] = [];
  listAt(aliases).forEach((raw, i) => {
    const alias = objectAt(raw);
    out.push(...legacyIpErrors(`${at}[${i}].ip`, stringAt(alias.ip)));
    listAt(alias.hostnames).forEach((h, j) => {
      const name = stringAt(h);
      const field = `${at}[${i}].hostnames[${j}]`;
      out.push(...dns1123SubdomainProblems(name).map((m) => invalid(field, name, m)));
    });
  });
  return out;
}
