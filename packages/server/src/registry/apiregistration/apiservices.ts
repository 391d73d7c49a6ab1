/** APIServices: spec changes bump metadata.generation. */
import { type KindStrategy, RESET_FOR_STATUS } from "../strategy.js";

export const apiservices: KindStrategy = {
  group: "apiregistration.k8s.io",
  resource: "apiservices",
  statusResetsMetadata: RESET_FOR_STATUS,
  tracksGeneration: true,
};
