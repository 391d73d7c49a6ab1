/**
 * SelfSubjectReview (authentication.k8s.io/v1): "who am I?" (`kubectl auth whoami`), answered with
 * the requesting user as the server authenticated it; nothing is stored.
 */
import { nowTimestamp } from "../../api/names.js";
import { ANONYMOUS } from "../../http/auth.js";
import type { KindStrategy } from "../strategy.js";

export const selfsubjectreviews: KindStrategy = {
  group: "authentication.k8s.io",
  resource: "selfsubjectreviews",
  virtual: true,
  prepareCreate(obj, ctx, requester) {
    const user = requester ?? ANONYMOUS;
    const userInfo: Record<string, unknown> = { username: user.name };
    if (user.uid) userInfo.uid = user.uid;
    if (user.groups.length > 0) userInfo.groups = [...user.groups];
    if (user.extra && Object.keys(user.extra).length > 0) userInfo.extra = user.extra;
    obj.status = { userInfo };
    // Unlike the other reviews, upstream stamps this answer with the time it was made.
    obj.metadata = { ...(obj.metadata as object), creationTimestamp: nowTimestamp(ctx.now()) };
  },
};
