/**
 * ConfigMaps: keys of data and binaryData are config keys, no key in both; an immutable ConfigMap
 * keeps its contents (ValidateConfigMap, ValidateConfigMapUpdate; the size limit is the request
 * stage's).
 */
import { configKeyErrors, immutableDataErrors } from "../../validation/config-keys.js";
import { type FieldError, invalid, isObject } from "../../validation/field-errors.js";
import type { KindStrategy } from "../strategy.js";

function configMapErrors(obj: Record<string, unknown>): FieldError[] {
  const out = configKeyErrors(obj.data, "data");
  const binary = isObject(obj.binaryData) ? obj.binaryData : {};
  if (isObject(obj.data))
    for (const k of Object.keys(obj.data))
      if (Object.hasOwn(binary, k))
        out.push(invalid(`data[${k}]`, k, "duplicate of key present in binaryData"));
  out.push(...configKeyErrors(obj.binaryData, "binaryData"));
  return out;
}

export const configmaps: KindStrategy = {
  group: "",
  resource: "configmaps",
  validate: (obj, old) => [
    ...(old ? immutableDataErrors(obj, old, ["data", "binaryData"]) : []),
    ...configMapErrors(obj),
  ],
};
