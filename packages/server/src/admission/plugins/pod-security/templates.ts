/**
 * The pod template of the workload kinds PodSecurity warns and audits for (upstream: the default
 * pod spec extractor): ReplicationControllers, PodTemplates, ReplicaSets, Deployments,
 * StatefulSets, DaemonSets, Jobs and CronJobs. Undefined for other resources and for a workload
 * without a template.
 */
import { isRecord } from "../target.js";
import { type Json, rec } from "./model.js";

type Path = readonly string[];

const TEMPLATE_PATHS: Record<string, Path> = {
  "/replicationcontrollers": ["spec", "template"],
  "/podtemplates": ["template"],
  "apps/replicasets": ["spec", "template"],
  "apps/deployments": ["spec", "template"],
  "apps/statefulsets": ["spec", "template"],
  "apps/daemonsets": ["spec", "template"],
  "batch/jobs": ["spec", "template"],
  "batch/cronjobs": ["spec", "jobTemplate", "spec", "template"],
};

export const isWorkload = (group: string, resource: string): boolean =>
  `${group}/${resource}` in TEMPLATE_PATHS;

export function templateOf(
  group: string,
  resource: string,
  object: Json,
): { meta: Json; spec: Json } | undefined {
  const path = TEMPLATE_PATHS[`${group}/${resource}`];
  if (!path) return undefined;
  let at: unknown = object;
  for (const key of path) {
    if (!isRecord(at)) return undefined;
    at = at[key];
  }
  if (!isRecord(at)) return undefined;
  return { meta: rec(at.metadata), spec: rec(at.spec) };
}
