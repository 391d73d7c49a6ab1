/**
 * SubjectAccessReview (authorization.k8s.io/v1): "may this user do this?". A virtual kind: the
 * create is answered with the authorizer's decision for the named user and nothing is stored.
 */
import type { KindStrategy } from "../strategy.js";
import {
  accessOf,
  accessStatus,
  attributeErrors,
  metadataErrors,
  reviewedUser,
  specOf,
} from "./access-review.js";

export const subjectaccessreviews: KindStrategy = {
  group: "authorization.k8s.io",
  resource: "subjectaccessreviews",
  virtual: true,
  validate: (obj) => [...attributeErrors(specOf(obj), true), ...metadataErrors(obj, false)],
  prepareCreate(obj, ctx) {
    const spec = specOf(obj);
    obj.status = accessStatus(ctx.authorizes?.(reviewedUser(spec), accessOf(spec)) ?? false);
  },
};
