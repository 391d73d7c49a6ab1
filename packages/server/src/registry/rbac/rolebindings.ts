/** RoleBindings: role reference and subjects validated as upstream does; the role reference is immutable. */
import type { KindStrategy } from "../strategy.js";
import { bindingErrors, defaultBinding } from "./rbac-rules.js";

export const rolebindings: KindStrategy = {
  group: "rbac.authorization.k8s.io",
  resource: "rolebindings",
  defaults: defaultBinding,
  validate: (obj, old) => bindingErrors(obj, old, true),
};
