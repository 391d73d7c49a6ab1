/** Spec cases of batch/v1: Jobs and CronJobs. */
import type { SpecVariants } from "./spec-case.js";

export const batchSpecs: readonly SpecVariants[] = [];
