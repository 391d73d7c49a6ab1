/**
 * What a fresh cluster has before anyone writes: the objects the apiserver writes for itself
 * (committed directly, system-objects.ts), then the caller's seed objects through the write path.
 */
import { nowTimestamp } from "./api/names.js";
import { StatusError } from "./api/status.js";
import { commitSystemObject } from "./controllers/stored-templates.js";
import type { HandlerContext } from "./endpoints/handlers/context.js";
import { createObject } from "./endpoints/handlers/write.js";
import {
  defaultServiceCidr,
  kubernetesService,
  readyServiceCidr,
  systemConfigMaps,
  systemNamespaces,
  systemPriorityClasses,
} from "./system-objects.js";

/** Creates the system namespaces and the seed objects; returns one message per rejected seed object. */
export async function bootstrap(
  ctx: HandlerContext,
  seed: readonly Record<string, unknown>[],
): Promise<string[]> {
  if (!ctx.resources.find("", "v1", "namespaces"))
    throw new Error("the built-in resource table has no namespaces");
  for (const object of systemNamespaces()) commitSystemObject(ctx, object);
  const problems: string[] = [];
  for (const obj of seed) {
    const [group, version] = splitApiVersion(String(obj.apiVersion ?? ""));
    const r = [...ctx.resources.all()].find(
      (x) => x.group === group && x.version === version && x.kind === obj.kind,
    );
    const meta = (obj.metadata ?? {}) as { name?: string; namespace?: string };
    const label = `${String(obj.kind)} ${meta.namespace ? `${meta.namespace}/` : ""}${meta.name ?? ""}`;
    if (!r) {
      problems.push(`${label}: no served resource for ${String(obj.apiVersion)} ${String(obj.kind)}`);
      continue;
    }
    try {
      await createObject(ctx, r, {
        namespace: r.namespaced ? (meta.namespace ?? "default") : undefined,
        query: new URLSearchParams(),
        body: obj,
      });
    } catch (e) {
      problems.push(`${label}: ${e instanceof StatusError ? e.message : String(e)}`);
    }
  }
  return problems;
}

/**
 * The kube-system ConfigMaps kube-apiserver writes at start (system-objects.ts says which); `now`
 * gives the date legacy ServiceAccount token tracking began.
 */
export function bootstrapSystemConfigMaps(ctx: HandlerContext, clientCaPem: string | undefined): void {
  const today = new Date(ctx.now()).toISOString().slice(0, 10);
  for (const object of systemConfigMaps(clientCaPem, today)) commitSystemObject(ctx, object);
}

/**
 * The two PriorityClasses kube-apiserver creates at start (its scheduling bootstrap), which the
 * Priority admission plugin resolves like any other class.
 */
export function bootstrapSystemPriorityClasses(ctx: HandlerContext): void {
  for (const object of systemPriorityClasses()) commitSystemObject(ctx, object);
}

/** `default/kubernetes`, the Service kube-apiserver keeps for itself (system-objects.ts). */
export function bootstrapKubernetesService(ctx: HandlerContext, port: number): void {
  commitSystemObject(ctx, kubernetesService(port));
}

/**
 * The default ServiceCIDR `kubernetes` kube-apiserver keeps for its service range, marked Ready as
 * its default-ServiceCIDR controller marks it; upstream's e2e framework reads it.
 */
export function bootstrapDefaultServiceCidr(ctx: HandlerContext): void {
  const cidr = defaultServiceCidr();
  const created = commitSystemObject(ctx, cidr);
  const r = ctx.resources.find(cidr.group, cidr.version, cidr.plural);
  if (!created || !r) return;
  ctx.store.update(r.bucket, cidr.name, readyServiceCidr(created, nowTimestamp(ctx.now())));
}

function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? ["", apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}
