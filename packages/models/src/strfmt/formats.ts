/**
 * The string `format`s kube-apiserver checks in CRD schemas (kube-openapi's strfmt registry), one
 * table the reference server and the client both validate with, so that the client refuses exactly
 * what the server refuses. Regexes follow go-openapi's definitions; the rest are in this folder.
 */
import { isDuration } from "./duration.js";
import { isEmail } from "./email.js";
import { isIPv6 } from "./ip.js";
import { requestUriProblems } from "./request-uri.js";
import { BASE64, isCIDR, isDate, isDateTime, isHostname, isIPv4, UUID } from "./strfmt.js";

export type StringFormatCheck = (s: string) => boolean;

const CREDIT_CARD =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;

const DEFINITIONS: Record<string, RegExp | StringFormatCheck> = {
  bsonobjectid: /^[0-9a-fA-F]{24}$/,
  byte: BASE64,
  cidr: isCIDR,
  creditcard: (s) => CREDIT_CARD.test(s.replace(/\D/g, "")),
  date: isDate,
  "date-time": isDateTime,
  datetime: isDateTime,
  duration: isDuration,
  email: isEmail,
  hexcolor: /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/,
  hostname: isHostname,
  ipv4: isIPv4,
  // govalidator's IsIPv6: Go parses it and it has a colon.
  ipv6: (s) => s.includes(":") && isIPv6(s),
  isbn: /^(?:\d{9}[\dX]|\d{13}|[\d-]{13}|[\d-]{17})$/,
  isbn10: /^(?:\d{9}[\dX]|[\d-]{13})$/,
  isbn13: /^(?:\d{13}|[\d-]{17})$/,
  "k8s-long-name": (s) =>
    s.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(s),
  "k8s-short-name": /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/,
  mac: /^(?:[0-9a-fA-F]{2}[:-]){5,19}[0-9a-fA-F]{2}$|^(?:[0-9a-fA-F]{4}\.){2,9}[0-9a-fA-F]{4}$/,
  password: () => true,
  rgbcolor: /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/,
  ssn: /^\d{3}[- ]?\d{2}[- ]?\d{4}$/,
  uri: (s) => requestUriProblems(s).length === 0,
  uuid: UUID,
  uuid3: /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i,
  uuid4: /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i,
  uuid5: /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i,
};

/** Each format kube-apiserver knows, by name; a format not here is not checked. */
export const STRING_FORMATS: ReadonlyMap<string, StringFormatCheck> = new Map(
  Object.entries(DEFINITIONS).map(([name, d]) => [name, d instanceof RegExp ? (s) => d.test(s) : d]),
);

/** Whether a string passes a schema format the apiserver validates (true for formats it does not know). */
export function matchesStringFormat(format: string, s: string): boolean {
  return STRING_FORMATS.get(format)?.(s) ?? true;
}
