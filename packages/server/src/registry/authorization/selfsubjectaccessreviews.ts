/**
 * SelfSubjectAccessReview (authorization.k8s.io/v1): "may I do this?" (`kubectl auth can-i`),
 * answered for the requesting user by the server's authorizer; nothing is stored.
 */
import { ANONYMOUS } from "../../http/auth.js";
import type { KindStrategy } from "../strategy.js";
import { accessOf, accessStatus, attributeErrors, metadataErrors, specOf } from "./access-review.js";

export const selfsubjectaccessreviews: KindStrategy = {
  group: "authorization.k8s.io",
  resource: "selfsubjectaccessreviews",
  virtual: true,
  validate: (obj) => [...attributeErrors(specOf(obj), false), ...metadataErrors(obj, false)],
  prepareCreate(obj, ctx, user) {
    obj.status = accessStatus(ctx.authorizes?.(user ?? ANONYMOUS, accessOf(specOf(obj))) ?? false);
  },
};
