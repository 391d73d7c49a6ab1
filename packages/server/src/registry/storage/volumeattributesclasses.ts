/**
 * VolumeAttributesClasses: DELETE answers with the object. A driver name (a provisioner name) and at
 * least one parameter; neither may change.
 */
import type { FieldError } from "../../api/status.js";
import { FieldErrors, forbidden, type Json, sameValue, str } from "../../validation/field-errors.js";
import type { KindStrategy } from "../strategy.js";
import { parametersErrors, provisionerErrors } from "./storage-rules.js";

function classErrors(vac: Json): FieldError[] {
  const out = new FieldErrors();
  provisionerErrors(str(vac.driverName), "driverName", out);
  out.add(...parametersErrors(vac.parameters, false, "parameters"));
  return out.list();
}

function vacErrors(vac: Json, old: Json | undefined): FieldError[] {
  if (!old) return classErrors(vac);
  const errs: FieldError[] = [];
  if (str(vac.driverName) !== str(old.driverName))
    errs.push(forbidden("driverName", "updates to driverName are forbidden."));
  if (!sameValue(vac.parameters, old.parameters))
    errs.push(forbidden("parameters", "updates to parameters are forbidden."));
  return [...errs, ...classErrors(vac)];
}

export const volumeattributesclasses: KindStrategy = {
  group: "storage.k8s.io",
  resource: "volumeattributesclasses",
  returnsDeletedObject: true,
  validate: vacErrors,
};
