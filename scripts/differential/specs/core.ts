/** Spec cases of core/v1. */
import type { SpecVariants } from "./spec-case.js";

export const coreSpecs: readonly SpecVariants[] = [];
