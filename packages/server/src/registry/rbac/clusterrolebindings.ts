/** ClusterRoleBindings: role reference and subjects validated as upstream does; the role reference is immutable. */
import type { KindStrategy } from "../strategy.js";
import { bindingErrors, defaultBinding } from "./rbac-rules.js";

export const clusterrolebindings: KindStrategy = {
  group: "rbac.authorization.k8s.io",
  resource: "clusterrolebindings",
  defaults: defaultBinding,
  validate: (obj, old) => bindingErrors(obj, old, false),
};
