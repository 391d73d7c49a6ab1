/**
 * StorageClasses: Delete, bind immediately; DELETE answers with the object. Validated as upstream:
 * provisioner, parameters, reclaim policy, binding mode, allowed topologies; the provisioner,
 * parameters, reclaim policy and binding mode are immutable.
 */
import type { FieldError } from "../../api/status.js";
import {
  arr,
  duplicate,
  FieldErrors,
  immutable,
  invalid,
  isSet,
  type Json,
  notSupported,
  obj,
  required,
  sameValue,
  str,
  strs,
} from "../../validation/field-errors.js";
import { qualifiedNameProblems } from "../../validation/object-meta.js";
import { set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { parametersErrors, provisionerErrors } from "./storage-rules.js";

const RECLAIM = ["Delete", "Retain"];
const BINDING = ["Immediate", "WaitForFirstConsumer"];

function requirementErrors(req: Json, field: string): FieldError[] {
  const key = str(req.key);
  const values = strs(req.values);
  const errs: FieldError[] = [];
  if (values.length === 0) errs.push(required(`${field}.values`));
  values.forEach((v, k) => {
    if (values.indexOf(v) !== k) errs.push(duplicate(`${field}.values[${k}]`, v));
  });
  errs.push(...qualifiedNameProblems(key).map((m) => invalid(`${field}.key`, key, m)));
  return errs;
}

/**
 * Terms that select the same labels are duplicates. Upstream compares each term with a list that
 * starts with one empty entry per term, so every empty term is reported too.
 */
function topologyErrors(terms: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen: string[] = terms.map(() => "[]");
  terms.forEach((t, i) => {
    const field = `allowedTopologies[${i}].matchLabelExpressions`;
    const keys = new Map<string, string[]>();
    arr(obj(t).matchLabelExpressions).forEach((e, j) => {
      const req = obj(e);
      errs.push(...requirementErrors(req, `${field}[${j}]`));
      const key = str(req.key);
      if (keys.has(key)) errs.push(duplicate(`${field}[${j}].key`, key));
      keys.set(key, [...new Set(strs(req.values))].sort());
    });
    const id = JSON.stringify([...keys.entries()].sort());
    if (seen.includes(id)) errs.push(duplicate(field, ""));
    seen.push(id);
  });
  return errs;
}

function storageClassErrors(sc: Json, old: Json | undefined): FieldError[] {
  const out = new FieldErrors();
  provisionerErrors(str(sc.provisioner), "provisioner", out);
  out.add(...parametersErrors(sc.parameters, true, "parameters"));
  const reclaim = str(sc.reclaimPolicy);
  if (reclaim !== "" && !RECLAIM.includes(reclaim)) out.add(notSupported("reclaimPolicy", reclaim, RECLAIM));
  if (!isSet(sc.volumeBindingMode)) out.add(required("volumeBindingMode"));
  else if (!BINDING.includes(str(sc.volumeBindingMode)))
    out.add(notSupported("volumeBindingMode", str(sc.volumeBindingMode), BINDING));
  out.add(...topologyErrors(arr(sc.allowedTopologies)));
  if (old)
    for (const key of ["provisioner", "parameters", "reclaimPolicy", "volumeBindingMode"])
      if (!sameValue(sc[key], old[key])) out.covered(immutable(key, null));
  return out.list();
}

export const storageclasses: KindStrategy = {
  group: "storage.k8s.io",
  resource: "storageclasses",
  returnsDeletedObject: true,
  defaults(obj) {
    set(obj, "reclaimPolicy", "Delete");
    set(obj, "volumeBindingMode", "Immediate");
  },
  validate: storageClassErrors,
};
