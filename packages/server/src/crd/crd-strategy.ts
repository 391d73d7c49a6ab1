/**
 * The write strategy of customresourcedefinitions: v1 defaults (singular,
 * listKind, conversion None), the status a new CRD starts with (empty
 * accepted names, the storage version as the first stored version), the
 * storage version added to storedVersions on update, and validation.
 */
import type { WriteStrategy } from "../resources/served.js";
import { namesOf, specOf, storageVersionOf, str, strList } from "./crd-view.js";
import { isObject } from "./json-schema.js";
import { validateCrd, validateCrdSteps } from "./validate-crd.js";

function setDefaults(crd: Record<string, unknown>): void {
  const spec = specOf(crd);
  if (!isObject(crd.spec)) return;
  const names = namesOf(crd);
  if (isObject(spec.names)) {
    const kind = str(names.kind);
    if (str(names.singular) === "") spec.names = { ...spec.names, singular: kind.toLowerCase() };
    if (str(names.listKind) === "" && kind !== "")
      spec.names = { ...(spec.names as object), listKind: `${kind}List` };
  }
  if (spec.conversion === undefined) spec.conversion = { strategy: "None" };
}

/** Copies the parts the defaults touch, so a body shared with a stored object is never modified. */
function withOwnSpec(crd: Record<string, unknown>): void {
  if (isObject(crd.spec)) crd.spec = { ...crd.spec };
}

function addStoredVersion(crd: Record<string, unknown>): void {
  const storage = storageVersionOf(crd);
  const status = isObject(crd.status) ? { ...crd.status } : {};
  const stored = strList(status.storedVersions);
  if (storage !== undefined && !stored.includes(storage)) status.storedVersions = [...stored, storage];
  crd.status = status;
}

export const crdStrategy: WriteStrategy = {
  prepareCreate(crd) {
    withOwnSpec(crd);
    setDefaults(crd);
    crd.status = { acceptedNames: { plural: "", kind: "" } };
    addStoredVersion(crd);
  },
  prepareUpdate(next, _old, subresource) {
    if (subresource === "status") {
      // An emptied list is refilled with the storage version, as kube-apiserver answers it.
      const stored = strList(isObject(next.status) ? next.status.storedVersions : undefined);
      if (stored.length === 0) addStoredVersion(next);
      return;
    }
    withOwnSpec(next);
    setDefaults(next);
    addStoredVersion(next);
  },
  validate: validateCrd,
  validateSteps: validateCrdSteps,
};
