#!/usr/bin/env node
/**
 * kubesdk-server: runs the reference API server in the foreground until
 * SIGINT/SIGTERM. `--help` lists the flags.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import YAML from "yaml";
import { type ClusterOptions, parseClusterDocument } from "./cluster/index.js";
import { type StartOptions, startServer } from "./server.js";

const HELP = `usage: kubesdk-server [flags]
  --port N               port to listen on (default 6443; 0 picks a free one)
  --host ADDR            address to bind (default 127.0.0.1)
  --kubeconfig PATH      write a kubeconfig for this server to PATH (default: a new file in the
                         temporary directory, readable by this user only; its path is printed)
  --token TOKEN          admin bearer token (default: random; it is in the kubeconfig, never printed)
  --seed FILE.yaml       objects to create at start (multi-document YAML, or a List)
  --history-window N     revisions kept readable for old lists/watches (default 100000)
  --anonymous            give unauthenticated requests full access (default: 403 like kube-apiserver)
  --no-anonymous-auth    answer unauthenticated requests 401 (like --anonymous-auth=false)
  --bookmark-interval S  seconds between watch bookmarks (default 60)
  --fault-api            serve fault controls at POST /_kubesdk/faults/<action> (see README)
  --pod-api              serve the simulated containers' controls at
                         POST /_kubesdk/pods/<namespace>/<pod>/<container>/log|stop|restart
  --fault-seed N         seed for fault schedules (default 1)
  --no-controllers       run no in-process controllers or scheduler (garbage collector, namespaces,
                         ServiceAccounts, root CA, workloads, node lifecycle: for a real kube-controller-manager and
                         kube-scheduler against this server); the simulated nodes still run pods
  --no-cluster           no simulated nodes, scheduler or workload controllers: pods stay Pending
                         (as on a kube-apiserver with nothing else running)
  --nodes N              simulate N nodes, node-1 … node-N (default 1)
  --cluster-config FILE  nodes, pod stages and timings of the simulated cluster (a SimulatedCluster
                         YAML document, see docs/guides/simulated-cluster.md)
  --verbose              log one line per request (credentials in query strings redacted)
  --help                 this text`;

const OPTIONS = {
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
  "pod-api": { type: "boolean", default: false },
  "fault-seed": { type: "string" },
  "no-controllers": { type: "boolean", default: false },
  "no-cluster": { type: "boolean", default: false },
  nodes: { type: "string" },
  "cluster-config": { type: "string" },
  verbose: { type: "boolean", default: false },
  help: { type: "boolean", default: false },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>["values"];

/** A numeric flag: undefined when absent, else the number if `valid` accepts it. */
function numberFlag(values: Values, name: keyof Values, valid: (n: number) => boolean, want: string) {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!valid(n)) throw new Error(`--${name}: ${want}: ${String(raw)}`);
  return n;
}

/** The server options the flags ask for. */
function startOptions(values: Values): StartOptions {
  const port = numberFlag(
    values,
    "port",
    (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
    "not a port number",
  );
  const window = numberFlag(
    values,
    "history-window",
    (n) => Number.isInteger(n) && n >= 1,
    "must be a positive integer",
  );
  const bookmarkSeconds = numberFlag(
    values,
    "bookmark-interval",
    (n) => n > 0,
    "must be a positive number of seconds",
  );
  const faultSeed = numberFlag(values, "fault-seed", Number.isInteger, "not an integer");
  return {
    port: port ?? 6443,
    host: values.host,
    anonymous: values.anonymous ? "allowed" : values["no-anonymous-auth"] ? "unauthorized" : "forbidden",
    seed: values.seed ? readSeed(values.seed) : [],
    ...(values.token ? { token: values.token } : {}),
    kubeconfigPath: values.kubeconfig ?? join(mkdtempSync(join(tmpdir(), "kubesdk-server-")), "kubeconfig"),
    ...(window !== undefined ? { history: { revisions: window } } : {}),
    ...(bookmarkSeconds !== undefined ? { watch: { bookmarkIntervalMs: bookmarkSeconds * 1000 } } : {}),
    faultApi: values["fault-api"],
    podApi: values["pod-api"],
    ...(values["no-controllers"] ? { controllers: false } : {}),
    ...clusterOption(values),
    ...(faultSeed !== undefined ? { faultSeed } : {}),
    ...(values.verbose ? { log: (line: string) => console.log(line) } : {}),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: OPTIONS, strict: true });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const options = startOptions(values);
  const server = await startServer(options);
  console.log(`kubesdk-server listening on ${server.url}`);
  // The admin token stays out of the output (logs are often shared): it is in the kubeconfig only.
  const path = options.kubeconfigPath as string;
  console.log(`kubeconfig written to ${path}: kubectl --kubeconfig ${path} get ns`);
  const shutdown = () => {
    server.stop().then(() => process.exit(0));
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

/** The simulated cluster the flags ask for: off, N nodes, or a SimulatedCluster document. */
function clusterOption(values: Values): Pick<StartOptions, "cluster"> {
  const nodeCount = numberFlag(values, "nodes", (n) => Number.isInteger(n) && n >= 0, "not a node count");
  if (values["no-cluster"]) {
    if (nodeCount !== undefined || values["cluster-config"])
      throw new Error("--no-cluster: --nodes and --cluster-config need the simulated cluster");
    return { cluster: false };
  }
  let cluster: ClusterOptions = {};
  const path = values["cluster-config"];
  if (path) cluster = parseClusterDocument(YAML.parse(readFileSync(path, "utf8")), path);
  if (nodeCount !== undefined)
    cluster = { ...cluster, nodes: Array.from({ length: nodeCount }, (_, i) => ({ name: `node-${i + 1}` })) };
  return { cluster };
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
