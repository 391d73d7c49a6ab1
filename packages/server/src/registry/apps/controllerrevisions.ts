/**
 * ControllerRevisions: a non-negative revision and `data` that is a JSON object, which no update
 * may change (ValidateControllerRevisionCreate and ValidateControllerRevisionUpdate).
 */
import {
  type FieldError,
  isObject,
  nonNegative,
  required,
  unchanged,
} from "../../validation/field-errors.js";
import type { KindStrategy } from "../strategy.js";

function dataErrors(data: unknown): FieldError[] {
  if (data === undefined || data === null) return [required("data", "data is mandatory")];
  return isObject(data) ? [] : [required("data", "data must be a valid JSON object")];
}

export const controllerrevisions: KindStrategy = {
  group: "apps",
  resource: "controllerrevisions",
  validate(obj, old) {
    const out = nonNegative("revision", obj.revision);
    if (!old) out.push(...dataErrors(obj.data));
    else out.push(...unchanged("data", obj.data, old.data));
    return out;
  },
};
