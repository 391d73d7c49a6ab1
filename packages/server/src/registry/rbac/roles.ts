/** Roles: policy rules validated as upstream validates them (registry/rbac/rbac-rules.ts). */
import type { KindStrategy } from "../strategy.js";
import { roleErrors } from "./rbac-rules.js";

export const roles: KindStrategy = {
  group: "rbac.authorization.k8s.io",
  resource: "roles",
  validate: (obj) => roleErrors(obj, true),
};
