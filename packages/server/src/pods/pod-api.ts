/**
 * The simulated containers' controls over HTTP, for a server run as a separate process (the
 * `kubesdk-server` command): what `server.pods` offers in process. `POST
 * /_kubesdk/pods/<namespace>/<pod>/<container>/<action>` with a JSON body:
 * - `log` `{"lines": ["…", …]}` appends log lines (followers see them at once);
 * - `stop` ends the container's followed logs; `restart` makes its logs the previous instance's.
 * Served only when asked for (off by default) and only to an administrator (system:masters), like the
 * fault API. The pod must exist and name the container.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors, failure } from "../api/status.js";
import { claimingPaths } from "../endpoints/route-extension.js";
import type { UserInfo } from "../http/auth.js";
import { readJsonObjectBody } from "../http/body.js";
import type { PodRuntime } from "./runtime.js";

const PREFIX = "/_kubesdk/pods/";
const MAX_BODY = 1024 * 1024;

const bad = (why: string) => errors.badRequest(`pod API: ${why}`);

type Action = (
  runtime: PodRuntime,
  ref: readonly [string, string, string],
  body: Record<string, unknown>,
) => void;

const ACTIONS: Readonly<Record<string, Action>> = {
  log: (runtime, [ns, pod, container], body) => {
    const lines = body.lines;
    if (!Array.isArray(lines) || !lines.every((l) => typeof l === "string"))
      throw bad("log needs lines, an array of strings");
    runtime.log(ns, pod, container, ...(lines as string[]));
  },
  stop: (runtime, [ns, pod, container]) => runtime.stop(ns, pod, container),
  restart: (runtime, [ns, pod, container]) => runtime.restart(ns, pod, container),
};

export function podApiRoute(runtime: PodRuntime) {
  return claimingPaths(
    (path) => path.startsWith(PREFIX),
    async (req: IncomingMessage, res: ServerResponse, url: URL, user?: UserInfo): Promise<boolean> => {
      if (!user?.groups.includes("system:masters"))
        throw failure(403, "Forbidden", `forbidden: User "${user?.name ?? ""}" cannot use the pod API`, {});
      if (req.method !== "POST")
        throw errors.methodNotSupported({ group: "", resource: "pods" }, req.method ?? "");
      const parts = url.pathname.slice(PREFIX.length).split("/").map(decodeURIComponent);
      const [namespace, pod, container, name] = parts;
      const action = name !== undefined && Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
      if (parts.length !== 4 || !namespace || !pod || !container || !action) throw errors.notFoundPath();
      // A container the pod does not have is the 400 a pods/log request for it gets.
      runtime.resolve(namespace, pod, container);
      action(runtime, [namespace, pod, container], await readJsonObjectBody(req, MAX_BODY, bad));
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}\n");
      return true;
    },
  );
}
