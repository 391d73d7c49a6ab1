/**
 * A DaemonSet's template generation. apps/v1 has no `spec.templateGeneration`: kube-apiserver
 * converts its internal field to and from the `deprecated.daemonset.template.generation` annotation,
 * so a request's annotation is read as the field (an integer, else 400 at decoding), a create gets at
 * least 1, and an update keeps the stored value but for a template change, which raises it by one
 * (upstream's PrepareForCreate/PrepareForUpdate). The DaemonSet controller labels pods with it.
 */
import { errors } from "../../api/status.js";
import { isObject, type Json, objectAt, sameValue } from "../../validation/field-errors.js";
import { child } from "../default-fields.js";

export const TEMPLATE_GENERATION = "deprecated.daemonset.template.generation";
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64), failing with Go's error text. */
function parseInt64(s: string): bigint {
  if (!/^[+-]?\d+$/.test(s)) throw errors.badRequest(undecodable(s, "invalid syntax"));
  const n = BigInt(s);
  if (n > INT64_MAX || n < -INT64_MAX - 1n) throw errors.badRequest(undecodable(s, "value out of range"));
  return n;
}

const undecodable = (s: string, why: string) =>
  `DaemonSet in version "v1" cannot be handled as a DaemonSet: strconv.ParseInt: parsing ${JSON.stringify(s)}: ${why}`;

/** The generation a DaemonSet's annotation states, 0 (Go's zero) without one. */
export function templateGeneration(obj: Json): bigint {
  const annotations = objectAt(objectAt(obj.metadata).annotations);
  const value = annotations[TEMPLATE_GENERATION];
  return typeof value === "string" ? parseInt64(value) : 0n;
}

function setGeneration(obj: Json, generation: bigint): void {
  const meta = child(obj, "metadata");
  const annotations = isObject(meta.annotations) ? meta.annotations : {};
  meta.annotations = { ...annotations, [TEMPLATE_GENERATION]: String(generation) };
}

/**
 * The annotation as decoding leaves it: kube-apiserver's conversion back to apps/v1 always writes
 * the internal field (0 when the request had none), before the managed fields are recorded, so the
 * writer owns it; the prepare steps below then set the generation itself.
 */
export function annotateTemplateGeneration(obj: Json): void {
  setGeneration(obj, templateGeneration(obj));
}

export function prepareTemplateGenerationOnCreate(obj: Json): void {
  const sent = templateGeneration(obj);
  setGeneration(obj, sent < 1n ? 1n : sent);
}

export function prepareTemplateGenerationOnUpdate(next: Json, old: Json, subresource?: string): void {
  templateGeneration(next); // decoding refuses a malformed value even though it is then replaced
  const stored = templateGeneration(old);
  const changed =
    subresource !== "status" && !sameValue(objectAt(next.spec).template, objectAt(old.spec).template);
  setGeneration(next, changed ? stored + 1n : stored);
}
