/** The spec cases of every group, one line per group file. */
import { appsSpecs } from "./apps.js";
import { batchSpecs } from "./batch.js";
import { coreSpecs } from "./core.js";
import type { SpecVariants } from "./spec-case.js";

export const SPEC_GROUPS: readonly (readonly SpecVariants[])[] = [appsSpecs, coreSpecs, batchSpecs];
