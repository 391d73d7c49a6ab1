/**
 * A container's `env` and `envFrom` as upstream validates them: relaxed variable names (printable
 * ASCII other than '='), exactly one `valueFrom` source and not beside a `value`, each source's own
 * rules (downward API paths, config map and secret key references, file keys read from an
 * emptyDir volume), and `envFrom` prefixes with exactly one config map or secret reference.
 */

import { configKeyProblems } from "./config-keys.js";
import { ENV_FIELD_PATHS, fieldSelectorErrors, resourceSelectorErrors } from "./downward-api.js";
import {
  type FieldError,
  invalid,
  isObject,
  type Json,
  listAt,
  notFound,
  objectAt,
  required,
  stringAt,
} from "./field-errors.js";
import { dns1123SubdomainProblems, dnsSubdomain } from "./name-formats.js";

const ENV_NAME = /^[\x20-\x3c\x3e-\x7e]+$/;
const ENV_NAME_MESSAGE =
  "a valid environment variable name must consist only of printable ASCII characters other than '='";

/** IsRelaxedEnvVarName (GA in 1.37). */
const envNameErrors = (name: string, field: string): FieldError[] =>
  ENV_NAME.test(name) ? [] : [invalid(field, name, ENV_NAME_MESSAGE)];

/** Config map and secret key selectors: a subdomain name (even empty) and a config key. */
function keySelectorErrors(s: Json, at: string): FieldError[] {
  const name = stringAt(s.name);
  const out = dns1123SubdomainProblems(name).map((m) => invalid(`${at}.name`, name, m));
  const key = stringAt(s.key);
  if (key === "") out.push(required(`${at}.key`));
  else out.push(...configKeyProblems(key).map((m) => invalid(`${at}.key`, key, m)));
  return out;
}

/** A file key: a variable name read from a file of an emptyDir volume of the pod. */
function fileKeyErrors(s: Json, at: string, volumes: ReadonlyMap<string, Json>): FieldError[] {
  const out: FieldError[] = [];
  const key = stringAt(s.key);
  if (key === "") out.push(required(`${at}.key`));
  else out.push(...envNameErrors(key, `${at}.key`));
  const volume = stringAt(s.volumeName);
  if (volume === "") out.push(required(`${at}.volumeName`));
  const path = stringAt(s.path);
  if (path === "") out.push(required(`${at}.path`));
  else if (path.split("/").includes("..")) out.push(invalid(`${at}.path`, path, "must not contain '..'"));
  const source = volumes.get(volume);
  if (!source) out.push(notFound(`${at}.volumeName`, volume));
  else if (!isObject(source.emptyDir))
    out.push(invalid(`${at}.volumeName`, volume, "referenced volume must be of type emptyDir"));
  return out;
}

const ONE_OF_VALUE_FROM =
  "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`";

function valueFromErrors(ev: Json, at: string, volumes: ReadonlyMap<string, Json>): FieldError[] {
  if (!isObject(ev.valueFrom)) return [];
  const from = ev.valueFrom;
  const checks: [string, (s: Json, path: string) => FieldError[]][] = [
    ["fieldRef", (s, path) => fieldSelectorErrors(s, ENV_FIELD_PATHS, path)],
    ["resourceFieldRef", (s, path) => resourceSelectorErrors(s, path, false)],
    ["configMapKeyRef", keySelectorErrors],
    ["secretKeyRef", keySelectorErrors],
    ["fileKeyRef", (s, path) => fileKeyErrors(s, path, volumes)],
  ];
  const out: FieldError[] = [];
  let sources = 0;
  for (const [key, check] of checks) {
    if (!isObject(from[key])) continue;
    sources++;
    out.push(...check(from[key], `${at}.${key}`));
  }
  if (sources === 0) out.push(invalid(at, "", ONE_OF_VALUE_FROM));
  else if (stringAt(ev.value) !== "")
    out.push(invalid(at, "", "may not be specified when `value` is not empty"));
  else if (sources > 1) out.push(invalid(at, "", "may not have more than one field specified at a time"));
  return out;
}

/** ValidateEnv. */
export function envErrors(env: unknown, at: string, volumes: ReadonlyMap<string, Json>): FieldError[] {
  const out: FieldError[] = [];
  listAt(env).forEach((raw, i) => {
    const ev = objectAt(raw);
    const name = stringAt(ev.name);
    const field = `${at}[${i}].name`;
    if (name === "") out.push(required(field));
    else out.push(...envNameErrors(name, field));
    out.push(...valueFromErrors(ev, `${at}[${i}].valueFrom`, volumes));
  });
  return out;
}

/** A config map or secret reference of envFrom: a name that may be a generated name's prefix. */
function envSourceErrors(ref: Json, at: string): FieldError[] {
  const name = stringAt(ref.name);
  if (name === "") return [required(`${at}.name`)];
  return dnsSubdomain(name, true).map((m) => invalid(`${at}.name`, name, m));
}

/** ValidateEnvFrom: the one-source errors are reported at the list, as upstream does. */
export function envFromErrors(envFrom: unknown, at: string): FieldError[] {
  const out: FieldError[] = [];
  listAt(envFrom).forEach((raw, i) => {
    const ev = objectAt(raw);
    const prefix = stringAt(ev.prefix);
    if (prefix !== "") out.push(...envNameErrors(prefix, `${at}[${i}].prefix`));
    let sources = 0;
    for (const key of ["configMapRef", "secretRef"]) {
      if (!isObject(ev[key])) continue;
      sources++;
      out.push(...envSourceErrors(ev[key], `${at}[${i}].${key}`));
    }
    if (sources === 0) out.push(invalid(at, "", "must specify one of: `configMapRef` or `secretRef`"));
    else if (sources > 1) out.push(invalid(at, "", "may not have more than one field specified at a time"));
  });
  return out;
}
