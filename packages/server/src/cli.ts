#!/usr/bin/env node
/**
 * kubesdk-server: runs the reference API server in the foreground until
 * SIGINT/SIGTERM. `--help` lists the flags.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import YAML from "yaml";
import { startServer } from "./server.js";

const HELP = `usage: kubesdk-server [flags]
  --port N               port to listen on (default 6443; 0 picks a free one)
  --host ADDR            address to bind (default 127.0.0.1)
  --kubeconfig PATH      write a kubeconfig for this server to PATH
  --token TOKEN          admin bearer token (default: random, printed)
  --seed FILE.yaml       objects to create at start (multi-document YAML, or a List)
  --history-window N     revisions kept readable for old lists/watches (default 100000)
  --anonymous            give unauthenticated requests full access (default: 403 like kube-apiserver)
  --no-anonymous-auth    answer unauthenticated requests 401 (like --anonymous-auth=false)
  --bookmark-interval S  seconds between watch bookmarks (default 60)
  --fault-api            serve fault controls at POST /_kubesdk/faults/<action> (see README)
  --fault-seed N         seed for fault schedules (default 1)
  --verbose              log one line per request
  --help                 this text`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "6443" },
      host: { type: "string", default: "127.0.0.1" },
      kubeconfig: { type: "string" },
      token: { type: "string" },
      seed: { type: "string" },
      "history-window": { type: "string" },
      anonymous: { type: "boolean", default: false },
      "no-anonymous-auth": { type: "boolean", default: false },
      "bookmark-interval": { type: "string" },
      "fault-api": { type: "boolean", default: false },
      "fault-seed": { type: "string" },
      verbose: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port: not a port number: ${values.port}`);
  const window = values["history-window"] === undefined ? undefined : Number(values["history-window"]);
  if (window !== undefined && (!Number.isInteger(window) || window < 1))
    throw new Error(`--history-window: must be a positive integer, got ${values["history-window"]}`);
  const seed = values.seed ? readSeed(values.seed) : [];
  const bookmarkSeconds =
    values["bookmark-interval"] === undefined ? undefined : Number(values["bookmark-interval"]);
  if (bookmarkSeconds !== undefined && !(bookmarkSeconds > 0))
    throw new Error(
      `--bookmark-interval: must be a positive number of seconds, got ${values["bookmark-interval"]}`,
    );
  const faultSeed = values["fault-seed"] === undefined ? undefined : Number(values["fault-seed"]);
  if (faultSeed !== undefined && !Number.isInteger(faultSeed))
    throw new Error(`--fault-seed: not an integer: ${values["fault-seed"]}`);
  const server = await startServer({
    port,
    host: values.host,
    anonymous: values.anonymous ? "allowed" : values["no-anonymous-auth"] ? "unauthorized" : "forbidden",
    seed,
    ...(values.token ? { token: values.token } : {}),
    ...(values.kubeconfig ? { kubeconfigPath: values.kubeconfig } : {}),
    ...(window !== undefined ? { history: { revisions: window } } : {}),
    ...(bookmarkSeconds !== undefined ? { watch: { bookmarkIntervalMs: bookmarkSeconds * 1000 } } : {}),
    faultApi: values["fault-api"],
    ...(faultSeed !== undefined ? { faultSeed } : {}),
    ...(values.verbose ? { log: (line: string) => console.log(line) } : {}),
  });
  console.log(`kubesdk-server listening on ${server.url}`);
  if (values.kubeconfig)
    console.log(
      `kubeconfig written to ${values.kubeconfig}: kubectl --kubeconfig ${values.kubeconfig} get ns`,
    );
  else console.log(`token: ${server.token}  (pass --kubeconfig PATH to get a kubeconfig for kubectl)`);
  const shutdown = () => {
    server.stop().then(() => process.exit(0));
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

function readSeed(path: string): Record<string, unknown>[] {
  const docs = YAML.parseAllDocuments(readFileSync(path, "utf8"));
  const out: Record<string, unknown>[] = [];
  for (const d of docs) {
    if (d.errors.length > 0) throw new Error(`--seed ${path}: ${d.errors[0]?.message}`);
    const v = d.toJS() as Record<string, unknown> | null;
    if (!v) continue;
    if (Array.isArray(v.items) && String(v.kind ?? "").endsWith("List"))
      out.push(...(v.items as Record<string, unknown>[]));
    else out.push(v);
  }
  return out;
}

main().catch((e) => {
  console.error(`kubesdk-server: ${(e as Error).message}`);
  process.exit(1);
});
