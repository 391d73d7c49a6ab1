/**
 * The certificate projections of a projected volume: cluster trust bundles (by name, or by signer
 * name and label selector) and pod certificates (signer, key type, lifetime, the files written).
 * Each returns its errors and the file paths it writes, for the projection's duplicate check.
 */
import {
  type FieldError,
  goJson,
  goStruct,
  invalid,
  isSet,
  type Json,
  notSupported,
  required,
  stringAt,
} from "./field-errors.js";
import { labelSelectorErrors } from "./label-selector.js";
import { dns1123SubdomainProblems } from "./name-formats.js";
import { annotationMapErrors } from "./object-meta.js";
import { signerNameErrors } from "./signer-names.js";
import { localNonReservedErrors } from "./volume-paths.js";

export interface Projection {
  readonly errors: FieldError[];
  readonly paths: string[];
}

/**
 * ValidateClusterTrustBundleName for a projection: a name with a colon belongs to the signer before
 * its last colon and must start with it; the rest (or a name without colons) is a subdomain.
 */
function trustBundleNameErrors(name: string, field: string): FieldError[] {
  const colon = name.lastIndexOf(":");
  const rest = colon < 0 ? name : name.slice(colon + 1);
  return dns1123SubdomainProblems(rest).map((m) =>
    invalid(field, name, `not a valid clustertrustbundlename: ${m}`),
  );
}

export function trustBundleProjection(ctb: Json, at: string): Projection {
  const out: FieldError[] = [];
  const name = ctb.name;
  const signer = ctb.signerName;
  if (typeof name === "string" && typeof signer === "string") {
    const keys = ["Name", "SignerName", "LabelSelector", "Optional", "Path", "User"];
    const shown = goStruct(keys.map((k) => [k, ctb[k.charAt(0).toLowerCase() + k.slice(1)] ?? null]));
    out.push(invalid(at, shown, "only one of name and signerName may be used"));
  } else if (typeof name === "string") {
    if (name === "") out.push(required(`${at}.name`, "must be a valid object name"));
    out.push(...trustBundleNameErrors(name, `${at}.name`));
    if (isSet(ctb.labelSelector))
      out.push(
        invalid(
          `${at}.labelSelector`,
          goJson(ctb.labelSelector),
          "labelSelector must be unset if name is specified",
        ),
      );
  } else if (typeof signer === "string") {
    if (signer === "") out.push(required(`${at}.signerName`, "must be a valid signer name"));
    out.push(...signerNameErrors(`${at}.signerName`, signer));
    if (isSet(ctb.labelSelector)) out.push(...labelSelectorErrors(ctb.labelSelector, `${at}.labelSelector`));
  } else out.push(required(at, "either name or signerName must be specified"));
  const path = stringAt(ctb.path);
  if (path === "") out.push(required(`${at}.path`));
  out.push(...localNonReservedErrors(path, `${at}.path`));
  return { errors: out, paths: [path] };
}

const HOUR = 3600;
/** The longest a pod certificate may live: 91 days, one day for a kubernetes.io signer. */
const maxPodCertificateSeconds = (signer: string) => {
  const host = signer.split("/")[0] ?? "";
  return host === "kubernetes.io" || host.endsWith(".kubernetes.io") ? 24 * HOUR : 91 * 24 * HOUR;
};
const KEY_TYPES = ["RSA3072", "RSA4096", "ECDSAP256", "ECDSAP384", "ECDSAP521", "ED25519"];
const FILES = ["credentialBundlePath", "keyPath", "certificateChainPath"];

function lifetimeErrors(seconds: unknown, signer: string, field: string): FieldError[] {
  if (typeof seconds !== "number") return [];
  const max = maxPodCertificateSeconds(signer);
  const out: FieldError[] = [];
  if (seconds < HOUR)
    out.push(invalid(field, seconds, `if provided, maxExpirationSeconds must be >= ${HOUR}`));
  if (seconds > max) out.push(invalid(field, seconds, `if provided, maxExpirationSeconds must be <= ${max}`));
  return out;
}

export function podCertificateProjection(cert: Json, at: string): Projection {
  const signer = stringAt(cert.signerName);
  const out = signerNameErrors(`${at}.signerName`, signer);
  const keyType = stringAt(cert.keyType);
  if (!KEY_TYPES.includes(keyType)) out.push(notSupported(`${at}.keyType`, keyType, KEY_TYPES));
  out.push(...lifetimeErrors(cert.maxExpirationSeconds, signer, `${at}.maxExpirationSeconds`));
  const paths = FILES.map((k) => stringAt(cert[k])).filter((p) => p !== "");
  if (paths.length === 0)
    out.push(required(at, "specify at least one of credentialBundlePath, keyPath, and certificateChainPath"));
  for (const k of FILES) {
    const p = stringAt(cert[k]);
    if (p !== "") out.push(...localNonReservedErrors(p, `${at}.${k}`));
  }
  out.push(...annotationMapErrors(cert.userAnnotations, `${at}.userAnnotations`));
  return { errors: out, paths };
}
