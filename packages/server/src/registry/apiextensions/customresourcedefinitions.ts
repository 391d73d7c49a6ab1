/** CustomResourceDefinitions: the strategy lives with the CRD machinery (crd/crd-strategy.ts). */
import { crdStrategy } from "../../crd/crd-strategy.js";
import type { KindStrategy } from "../strategy.js";

export const customresourcedefinitions: KindStrategy = {
  group: "apiextensions.k8s.io",
  resource: "customresourcedefinitions",
  tracksGeneration: true,
  ...crdStrategy,
};
