/** APIServices: spec changes bump metadata.generation. */
import type { KindStrategy } from "../strategy.js";

export const apiservices: KindStrategy = {
  group: "apiregistration.k8s.io",
  resource: "apiservices",
  tracksGeneration: true,
};
