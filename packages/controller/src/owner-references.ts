/**
 * Controller owner references: the one `ownerReferences` entry with `controller: true` that ties an
 * object to the object managing it (garbage collection and the controller's owner mapping use it).
 *
 * Contract: an object has at most one controller reference; {@link setControllerReference} adds or
 * refreshes it for `owner` and refuses (ControllerError INVALID_DECLARATION) to
 * replace a reference to a different controller.
 */
import type { KubernetesObject, metaV1 } from "@kubesdk/models";
import { ControllerError } from "./errors.js";

/** The group of an apiVersion ("apps/v1" → "apps", "v1" → ""). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

/** The controller reference of `obj`, if any. */
export function controllerOf(obj: KubernetesObject): metaV1.OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** The owner reference that makes `owner` the controller (blocking the owner's foreground deletion). */
export function controllerReference(owner: KubernetesObject): metaV1.OwnerReference {
  const name = owner.metadata?.name;
  const uid = owner.metadata?.uid;
  if (!owner.apiVersion || !owner.kind || !name || !uid)
    throw new ControllerError(
      "INVALID_DECLARATION",
      "a controller reference needs the owner's apiVersion, kind, metadata.name and metadata.uid",
    );
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name,
    uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** `obj` with `owner` as its controller; throws if another object already controls it. */
export function setControllerReference<T extends KubernetesObject>(owner: KubernetesObject, obj: T): T {
  const ref = controllerReference(owner);
  const current = controllerOf(obj);
  if (current !== undefined && current.uid !== ref.uid)
    throw new ControllerError(
      "INVALID_DECLARATION",
      `${obj.kind ?? "object"} ${obj.metadata?.name} is already controlled by ${current.kind} ${current.name}`,
    );
  const others = (obj.metadata?.ownerReferences ?? []).filter((r) => r.uid !== ref.uid);
  return { ...obj, metadata: { ...obj.metadata, ownerReferences: [...others, ref] } };
}

/** Whether `ref` points at an object of `apiVersion`'s group and `kind` (versions may differ). */
export function refersTo(ref: metaV1.OwnerReference, apiVersion: string, kind: string): boolean {
  return ref.kind === kind && groupOf(ref.apiVersion) === groupOf(apiVersion);
}
