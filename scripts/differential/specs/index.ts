/** The spec-case groups of the differential run: one line per group (types.ts says what a group is). */
import { apps } from "./apps.js";
import { autoscaling } from "./autoscaling.js";
import { batch } from "./batch.js";
import { certificates } from "./certificates.js";
import { coordination } from "./coordination.js";
import { core } from "./core.js";
import { discovery } from "./discovery.js";
import { events } from "./events.js";
import { networking } from "./networking.js";
import { node } from "./node.js";
import { policy } from "./policy.js";
import { rbac } from "./rbac.js";
import { scheduling } from "./scheduling.js";
import { storage } from "./storage.js";
import type { SpecGroup } from "./types.js";

export const SPEC_GROUPS: readonly SpecGroup[] = [
  rbac,
  networking,
  policy,
  certificates,
  coordination,
  events,
  storage,
  scheduling,
  node,
  discovery,
  apps,
  core,
  batch,
  autoscaling,
];
