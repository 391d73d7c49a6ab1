/**
 * TokenReview (authentication.k8s.io/v1): "whose token is this?". A virtual kind: the create is
 * answered with the token's user, as the server itself authenticates bearer tokens, and nothing is
 * stored. A review without a token is a 400; a token nobody holds reviews as not authenticated
 * with kube-apiserver's error (`status: {user: {}, error: "invalid bearer token"}`: its Go struct
 * encodes an empty user as `{}`).
 */
import { errors } from "../../api/status.js";
import type { UserInfo } from "../../http/auth.js";
import type { KindStrategy } from "../strategy.js";

function userInfoOf(user: UserInfo): Record<string, unknown> {
  return {
    username: user.name,
    ...(user.uid ? { uid: user.uid } : {}),
    ...(user.groups.length > 0 ? { groups: [...user.groups] } : {}),
    ...(user.extra && Object.keys(user.extra).length > 0 ? { extra: user.extra } : {}),
  };
}

export const tokenreviews: KindStrategy = {
  group: "authentication.k8s.io",
  resource: "tokenreviews",
  virtual: true,
  prepareCreate(obj, ctx) {
    const token = (obj.spec as { token?: unknown } | undefined)?.token;
    if (typeof token !== "string" || token === "")
      throw errors.badRequest("token is required for TokenReview in authentication");
    const user = ctx.authenticateToken?.(token);
    obj.status = user
      ? { authenticated: true, user: userInfoOf(user) }
      : { user: {}, error: "invalid bearer token" };
  },
};
