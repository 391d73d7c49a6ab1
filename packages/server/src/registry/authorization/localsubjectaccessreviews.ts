/**
 * LocalSubjectAccessReview (authorization.k8s.io/v1): a SubjectAccessReview scoped to the namespace
 * it is created in, so that namespace admins may be granted it. Its resource attributes must name
 * that namespace, and it may not ask about non-resource paths.
 */
import type { FieldError } from "../../api/status.js";
import type { KindStrategy } from "../strategy.js";
import {
  accessOf,
  accessStatus,
  attributeErrors,
  metadataErrors,
  nonResourceValue,
  reviewedUser,
  specOf,
} from "./access-review.js";

type Json = Record<string, unknown>;

function scopeErrors(obj: Json): FieldError[] {
  const spec = specOf(obj);
  const out: FieldError[] = [];
  const namespace = (obj.metadata as Json | undefined)?.namespace ?? "";
  const attributes = spec.resourceAttributes as Json | undefined;
  const asked = attributes?.namespace ?? "";
  if (attributes && asked !== namespace)
    out.push({
      type: "FieldValueInvalid",
      field: "spec.resourceAttributes.namespace",
      value: asked,
      detail: "must match metadata.namespace",
    });
  if (spec.nonResourceAttributes)
    out.push({
      type: "FieldValueInvalid",
      field: "spec.nonResourceAttributes",
      value: nonResourceValue(spec.nonResourceAttributes as Json),
      detail: "disallowed on this kind of request",
    });
  return out;
}

export const localsubjectaccessreviews: KindStrategy = {
  group: "authorization.k8s.io",
  resource: "localsubjectaccessreviews",
  virtual: true,
  validate: (obj) => [
    ...attributeErrors(specOf(obj), true),
    ...metadataErrors(obj, true),
    ...scopeErrors(obj),
  ],
  prepareCreate(obj, ctx) {
    const spec = specOf(obj);
    obj.status = accessStatus(ctx.authorizes?.(reviewedUser(spec), accessOf(spec)) ?? false);
  },
};
