/**
 * The volume sources that project files: secret, configMap, downwardAPI and projected volumes
 * (key-to-path items, downward API files, service account tokens; certificates: volume-certificates.ts),
 * with upstream's field paths (downward API files and some projected errors are reported without
 * their index).
 */
import { fieldSelectorErrors, resourceSelectorErrors, VOLUME_FIELD_PATHS } from "./downward-api.js";
import {
  type FieldError,
  forbidden,
  invalid,
  isObject,
  type Json,
  listAt,
  objectAt,
  required,
  stringAt,
} from "./field-errors.js";
import { type Projection, podCertificateProjection, trustBundleProjection } from "./volume-certificates.js";
import { fileModeErrors, localNonReservedErrors } from "./volume-paths.js";

/** validateKeyToPath. */
function keyToPathErrors(kp: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  const path = stringAt(kp.path);
  if (stringAt(kp.key) === "") out.push(required(`${at}.key`));
  if (path === "") out.push(required(`${at}.path`));
  out.push(...localNonReservedErrors(path, `${at}.path`));
  out.push(...fileModeErrors(kp.mode, `${at}.mode`));
  return out;
}

/** Secret and config map volumes: the name field, the default mode and the items. */
export const keyedSourceErrors =
  (nameKey: string) =>
  (s: Json, at: string): FieldError[] => {
    const out = stringAt(s[nameKey]) === "" ? [required(`${at}.${nameKey}`)] : [];
    out.push(...fileModeErrors(s.defaultMode, `${at}.defaultMode`));
    listAt(s.items).forEach((kp, i) => {
      out.push(...keyToPathErrors(objectAt(kp), `${at}.items[${i}]`));
    });
    return out;
  };

/** validateDownwardAPIVolumeFile, reported under `at` (the source, not the item). */
function downwardFileErrors(file: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  const path = stringAt(file.path);
  if (path === "") out.push(required(`${at}.path`));
  out.push(...localNonReservedErrors(path, `${at}.path`));
  if (isObject(file.fieldRef)) {
    out.push(...fieldSelectorErrors(file.fieldRef, VOLUME_FIELD_PATHS, `${at}.fieldRef`));
    if (isObject(file.resourceFieldRef))
      out.push(invalid(at, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"));
  } else if (isObject(file.resourceFieldRef))
    out.push(...resourceSelectorErrors(file.resourceFieldRef, `${at}.resourceFieldRef`, true));
  else out.push(required(at, "one of fieldRef and resourceFieldRef is required"));
  out.push(...fileModeErrors(file.mode, `${at}.mode`));
  return out;
}

export function downwardApiSourceErrors(s: Json, at: string): FieldError[] {
  const out = fileModeErrors(s.defaultMode, `${at}.defaultMode`);
  for (const file of listAt(s.items)) out.push(...downwardFileErrors(objectAt(file), at));
  return out;
}

/** A service account token: 10 minutes to 2^32 seconds, a local path (reported at `projected.path`). */
function tokenErrors(token: Json, at: string, projected: string): FieldError[] {
  const out: FieldError[] = [];
  // v1 defaulting gives a token an hour.
  const seconds = typeof token.expirationSeconds === "number" ? token.expirationSeconds : 3600;
  if (seconds < 600)
    out.push(invalid(`${at}.expirationSeconds`, seconds, "may not specify a duration less than 10 minutes"));
  if (seconds > 2 ** 32)
    out.push(
      invalid(`${at}.expirationSeconds`, seconds, "may not specify a duration larger than 2^32 seconds"),
    );
  const path = stringAt(token.path);
  if (path === "") out.push(required(`${projected}.path`));
  else out.push(...localNonReservedErrors(path, `${projected}.path`));
  return out;
}

/** Each source's errors and the file paths it projects (duplicates are refused across sources). */
function projectionErrors(src: Json, at: string, projected: string, paths: Set<string>): FieldError[] {
  const out: FieldError[] = [];
  const claim = (path: string, shown: unknown) => {
    if (paths.has(path)) out.push(invalid(projected, shown, "conflicting duplicate paths"));
    paths.add(path);
  };
  for (const key of ["secret", "configMap"]) {
    if (!isObject(src[key])) continue;
    const s = src[key];
    if (stringAt(s.name) === "") out.push(required(`${at}.${key}.name`));
    listAt(s.items).forEach((raw, i) => {
      const kp = objectAt(raw);
      out.push(...keyToPathErrors(kp, `${at}.${key}.items[${i}]`));
      if (stringAt(kp.path) !== "") claim(stringAt(kp.path), stringAt(s.name));
    });
  }
  if (isObject(src.downwardAPI))
    for (const raw of listAt(src.downwardAPI.items)) {
      const file = objectAt(raw);
      out.push(...downwardFileErrors(file, `${at}.downwardAPI`));
      if (stringAt(file.path) !== "") claim(stringAt(file.path), stringAt(file.path));
    }
  if (isObject(src.serviceAccountToken))
    out.push(...tokenErrors(src.serviceAccountToken, `${at}.serviceAccountToken`, projected));
  const certificates: [string, (s: Json, path: string) => Projection][] = [
    ["clusterTrustBundle", trustBundleProjection],
    ["podCertificate", podCertificateProjection],
  ];
  for (const [key, project] of certificates) {
    if (!isObject(src[key])) continue;
    const p = project(src[key], `${at}.${key}`);
    out.push(...p.errors);
    for (const path of p.paths) claim(path, path);
  }
  return out;
}

const PROJECTIONS = [
  "secret",
  "configMap",
  "downwardAPI",
  "serviceAccountToken",
  "clusterTrustBundle",
  "podCertificate",
];

/** validateProjectedVolumeSource. */
export function projectedSourceErrors(s: Json, at: string): FieldError[] {
  const out = fileModeErrors(s.defaultMode, `${at}.defaultMode`);
  const paths = new Set<string>();
  listAt(s.sources).forEach((raw, i) => {
    const src = objectAt(raw);
    const path = `${at}.sources[${i}]`;
    out.push(...projectionErrors(src, path, at, paths));
    if (PROJECTIONS.filter((k) => isObject(src[k])).length > 1)
      out.push(forbidden(path, "may not specify more than 1 volume type per source"));
  });
  return out;
}
