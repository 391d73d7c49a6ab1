/**
 * Secrets: stringData folded into data, type Opaque; selectable by type. Validated as ValidateSecret
 * (config keys, the keys each type requires) and ValidateSecretUpdate (type and immutable contents).
 */

import { setMember } from "@kubesdk/models/internal";
import { configKeyErrors, immutableDataErrors } from "../../validation/config-keys.js";
import {
  type FieldError,
  invalid,
  objectAt,
  required,
  stringAt,
  unchanged,
} from "../../validation/field-errors.js";
import { child, isObj, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

/** The data keys each built-in secret type requires. */
const REQUIRED_KEYS: Readonly<Record<string, readonly string[]>> = {
  "kubernetes.io/dockercfg": [".dockercfg"],
  "kubernetes.io/dockerconfigjson": [".dockerconfigjson"],
  "kubernetes.io/ssh-auth": ["ssh-privatekey"],
  "kubernetes.io/tls": ["tls.crt", "tls.key"],
};

function jsonObjectProblem(base64: unknown): string | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(stringAt(base64), "base64").toString("utf8"));
    return typeof v === "object" && !Array.isArray(v) ? undefined : "json: cannot unmarshal into a map";
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

function typeErrors(obj: Record<string, unknown>): FieldError[] {
  const type = stringAt(obj.type);
  const data = objectAt(obj.data);
  if (type === "kubernetes.io/service-account-token") {
    const name = objectAt(objectAt(obj.metadata).annotations)["kubernetes.io/service-account.name"];
    return stringAt(name) === ""
      ? [required("metadata.annotations[kubernetes.io/service-account.name]")]
      : [];
  }
  if (type === "kubernetes.io/basic-auth")
    return "username" in data || "password" in data
      ? []
      : [required("data[username]"), required("data[password]")];
  const keys = REQUIRED_KEYS[type] ?? [];
  if (type === "kubernetes.io/ssh-auth")
    return stringAt(data["ssh-privatekey"]) === "" ? [required("data[ssh-privatekey]")] : [];
  const missing = keys.filter((k) => !(k in data));
  if (missing.length > 0) return missing.map((k) => required(`data[${k}]`));
  if (type === "kubernetes.io/dockercfg" || type === "kubernetes.io/dockerconfigjson") {
    const key = keys[0] as string;
    const problem = jsonObjectProblem(data[key]);
    if (problem) return [invalid(`data[${key}]`, "<secret contents redacted>", problem)];
  }
  return [];
}

function secretErrors(obj: Record<string, unknown>, old: Record<string, unknown> | undefined): FieldError[] {
  const out: FieldError[] = [];
  if (old) {
    out.push(...unchanged("type", obj.type, old.type, stringAt(obj.type)));
    out.push(...immutableDataErrors(obj, old, ["data"]));
  }
  out.push(...configKeyErrors(obj.data, "data"), ...typeErrors(obj));
  return out;
}

export const secrets: KindStrategy = {
  group: "",
  resource: "secrets",
  fieldLabels: ["type"],
  defaults(obj) {
    // stringData is write-only: merged into data (base64) and dropped, as upstream converts it.
    if (isObj(obj.stringData)) {
      const data = child(obj, "data");
      for (const [k, v] of Object.entries(obj.stringData))
        if (typeof v === "string") setMember(data, k, Buffer.from(v).toString("base64"));
    }
    delete obj.stringData;
    set(obj, "type", "Opaque");
  },
  validate: secretErrors,
};
