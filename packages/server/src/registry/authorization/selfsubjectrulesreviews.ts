/**
 * SelfSubjectRulesReview (authorization.k8s.io/v1): what the requesting user may do in a namespace
 * (`kubectl auth can-i --list`). The server's authorizer grants its known users everything, so their
 * rules are the wildcard ones; users it does not know get none. Nothing is stored.
 */
import { ANONYMOUS } from "../../http/auth.js";
import type { KindStrategy } from "../strategy.js";

export const selfsubjectrulesreviews: KindStrategy = {
  group: "authorization.k8s.io",
  resource: "selfsubjectrulesreviews",
  virtual: true,
  prepareCreate(obj, ctx, user) {
    const full = ctx.authorizes?.(user ?? ANONYMOUS, { verb: "*", group: "*", resource: "*" }) ?? false;
    obj.status = {
      resourceRules: full ? [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }] : [],
      nonResourceRules: full ? [{ verbs: ["*"], nonResourceURLs: ["*"] }] : [],
      incomplete: false,
    };
  },
};
