/** Ingresses: spec changes bump metadata.generation. */
import type { KindStrategy } from "../strategy.js";

export const ingresses: KindStrategy = {
  group: "networking.k8s.io",
  resource: "ingresses",
  tracksGeneration: true,
};
