/**
 * The reference server's metrics.k8s.io/v1beta1 routes (what an aggregated metrics-server serves
 * behind kube-apiserver), from the store's pods and nodes and the pod runtime's usage.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors } from "../api/status.js";
import type { HandlerContext } from "../endpoints/handlers/context.js";
import { claimingPaths } from "../endpoints/route-extension.js";
import { type AuthSettings, authorize, type UserInfo } from "../http/auth.js";
import { negotiate } from "../http/negotiate.js";
import { writeBody } from "../http/respond.js";
import { METRICS_GROUP, type MetricsSource, metricsAnswer, metricsTarget } from "./metrics.js";
import type { PodRuntime } from "./runtime.js";

type Json = Record<string, unknown>;

/** The group's paths; metricsTarget answers nothing for others. */
const METRICS_PATH = `/apis/${METRICS_GROUP}`;

function storeSource(ctx: HandlerContext): MetricsSource {
  const list = (resource: string, namespace: string | undefined): readonly Json[] => {
    const r = ctx.resources.find("", "v1", resource);
    if (!r) return [];
    const prefix = namespace === undefined ? "" : `${namespace}/`;
    return ctx.store.list(r.bucket, { prefix }).items as readonly Json[];
  };
  return { pods: (namespace) => list("pods", namespace), nodes: () => list("nodes", undefined) };
}

export function metricsRoutes(runtime: PodRuntime, ctx: HandlerContext, auth: AuthSettings) {
  const source = storeSource(ctx);
  return claimingPaths(
    (path) => path === METRICS_PATH || path.startsWith(`${METRICS_PATH}/`),
    async (req: IncomingMessage, res: ServerResponse, url: URL, user: UserInfo): Promise<boolean> => {
      let target: ReturnType<typeof metricsTarget>;
      try {
        target = metricsTarget(url.pathname);
      } catch (err) {
        // An unknown metrics path is 404 only to those allowed to ask (authorization comes first).
        authorize(user, auth, { path: url.pathname, verb: "get" });
        throw err;
      }
      if (target === undefined) return false;
      if (req.method !== "GET" && req.method !== "HEAD") throw errors.notFoundPath();
      if ("doc" in target) authorize(user, auth, { path: url.pathname, verb: "get" });
      else
        authorize(user, auth, {
          verb: target.name === undefined ? "list" : "get",
          group: METRICS_GROUP,
          resource: target.kind,
          ...(target.namespace !== undefined ? { namespace: target.namespace } : {}),
          ...(target.name !== undefined ? { name: target.name } : {}),
        });
      const body = await metricsAnswer(runtime, source, target, url.searchParams, ctx.now());
      const pretty = url.searchParams.get("pretty") === "true";
      const choice = negotiate(req.headers.accept, { protobuf: false, shapes: [] }) ?? {
        encoding: "json" as const,
        pretty,
      };
      writeBody(res, 200, body, { ...choice, pretty });
      return true;
    },
  );
}
