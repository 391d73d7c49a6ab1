/** Ingresses: spec changes bump metadata.generation; validated as upstream (ingress-rules.ts). */
import type { KindStrategy } from "../strategy.js";
import { ingressErrors, ingressStatusErrors } from "./ingress-rules.js";

export const ingresses: KindStrategy = {
  group: "networking.k8s.io",
  resource: "ingresses",
  tracksGeneration: true,
  validate: (ing, old, subresource) =>
    subresource === "status" && old ? ingressStatusErrors(ing, old) : ingressErrors(ing, old),
};
