/**
 * ValidatePersistentVolumeClaimUpdate's own rules: the spec is immutable after creation, except a
 * volumeName set once, a storage class set where there was none (or taken over from the beta
 * annotation), and, for a bound claim, the storage request and the volume attributes class. The
 * requested storage may shrink only above the recorded capacity (RecoverVolumeExpansionFailure is
 * on in 1.37), and a volume attributes class once applied may not be unset. Upstream appends a
 * field-by-field diff to the immutable-spec message; here it names the changed fields (as SV1a).
 */
import {
  type FieldError,
  forbidden,
  immutable,
  invalid,
  type Json,
  objectAt,
  sameValue,
  stringAt,
} from "../../validation/field-errors.js";
import { quantityValue } from "../../validation/quantity-value.js";

const BETA_CLASS = "volume.beta.kubernetes.io/storage-class";
const IMMUTABLE_SPEC =
  "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims";

const annotation = (meta: unknown): string | undefined => {
  const v = objectAt(objectAt(meta).annotations)[BETA_CLASS];
  return typeof v === "string" ? v : undefined;
};
const classOf = (spec: Json): string | undefined =>
  typeof spec.storageClassName === "string" ? spec.storageClassName : undefined;

/** The storage class rules: an upgrade from the annotation or from none, else both stay. */
function storageClassErrors(obj: Json, old: Json, next: Json): FieldError[] {
  const oldClass = annotation(old.metadata);
  const newClass = annotation(obj.metadata);
  const wasSet = classOf(objectAt(old.spec));
  const now = classOf(next);
  const fromAnnotation =
    oldClass !== undefined &&
    wasSet === undefined &&
    now === oldClass &&
    (newClass === undefined || newClass === oldClass);
  if (fromAnnotation) {
    delete next.storageClassName;
    return [];
  }
  const out: FieldError[] = [];
  if ((newClass ?? "") !== (oldClass ?? ""))
    out.push(invalid(`metadata.annotations.${BETA_CLASS}`, newClass ?? "", "field is immutable"));
  if (now !== undefined && wasSet === undefined && (oldClass === undefined || now === oldClass))
    next.storageClassName = objectAt(old.spec).storageClassName;
  return out;
}

const storageOf = (spec: Json): unknown => objectAt(objectAt(spec.resources).requests).storage;
const sizeOf = (v: unknown) => quantityValue(typeof v === "string" ? v : String(v ?? "0"));

function shrinkErrors(spec: Json, was: Json, old: Json): FieldError[] {
  const now = sizeOf(storageOf(spec));
  const before = sizeOf(storageOf(was));
  const capacity = sizeOf(objectAt(objectAt(old.status).capacity).storage);
  if (!now || !before || !capacity || now.compare(before) >= 0 || now.compare(capacity) > 0) return [];
  return [forbidden("spec.resources.requests.storage", "field can not be less than status.capacity")];
}

function attributesClassErrors(spec: Json, was: Json, old: Json): FieldError[] {
  const now = spec.volumeAttributesClassName;
  if (sameValue(now, was.volumeAttributesClassName)) return [];
  if (objectAt(old.status).currentVolumeAttributesClassName == null) return [];
  const at = "spec.volumeAttributesClassName";
  if (now == null)
    return [
      forbidden(at, "update to nil is forbidden when status.currentVolumeAttributesClassName is not nil"),
    ];
  if (now === "")
    return [
      forbidden(
        at,
        "update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil",
      ),
    ];
  return [];
}

/** The spec with what the update may change put back as it was. */
function munged(spec: Json, was: Json, bound: boolean): Json {
  const next: Json = { ...spec };
  if (bound && objectAt(spec.resources).requests !== undefined) {
    const resources = objectAt(spec.resources);
    next.resources = { ...resources, requests: { ...objectAt(resources.requests), storage: storageOf(was) } };
  }
  if (bound) next.volumeAttributesClassName = was.volumeAttributesClassName;
  return next;
}

/** The spec fields that differ; volumeName is a plain string upstream, so "" reads as unset. */
function changedFields(next: Json, was: Json): string[] {
  const read = (spec: Json, k: string) => (k === "volumeName" && spec[k] === "" ? undefined : spec[k]);
  return [...new Set([...Object.keys(next), ...Object.keys(was)])]
    .filter((k) => !sameValue(read(next, k), read(was, k)))
    .sort();
}

/** A claim update (not /status): `obj` and `old` are whole claims, `obj` carrying the old status. */
export function claimUpdateErrors(obj: Json, old: Json): FieldError[] {
  const spec = objectAt(obj.spec);
  const oldSpec = objectAt(old.spec);
  // The volume binder sets volumeName once.
  const was = stringAt(oldSpec.volumeName) === "" ? { ...oldSpec, volumeName: spec.volumeName } : oldSpec;
  const next = munged(spec, was, objectAt(old.status).phase === "Bound");
  const out = storageClassErrors(obj, old, next);
  const changed = changedFields(next, was);
  if (changed.length > 0)
    out.push(
      forbidden("spec", `${IMMUTABLE_SPEC}\n(changed: ${changed.map((k) => `spec.${k}`).join(", ")})`),
    );
  out.push(...shrinkErrors(spec, oldSpec, old));
  // Upstream reports the volume mode at a top-level path.
  if (!sameValue(spec.volumeMode, oldSpec.volumeMode))
    out.push(immutable("volumeMode", spec.volumeMode ?? null));
  out.push(...attributesClassErrors(spec, oldSpec, old));
  return out;
}
