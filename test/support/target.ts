/**
 * The one place contract tests get their API server from. By default it
 * starts the reference server in-process; with KUBESDK_TEST_TARGET=real it
 * uses the kube-apiserver described by KUBESDK_TEST_KUBECONFIG (the real-
 * apiserver harness sets both), so the same suites run against both.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, type StartOptions, startServer } from "@kubesdk/server";
import { Agent, request } from "undici";
import YAML from "yaml";

export interface TestTarget {
  readonly kind: "reference" | "real";
  readonly url: string;
  readonly token: string;
  readonly ca: string | undefined;
  readonly kubeconfigPath: string;
  /** Set only for the in-process reference server. */
  readonly reference: RunningServer | undefined;
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
  /**
   * Forgets every past revision: the reference store compacts; a real apiserver's etcd is compacted
   * (test:real exports KUBESDK_TEST_ETCD_ENDPOINT). On the real server only resources outside the
   * watch cache (podtemplates in test:real) then answer 410 for old revisions.
   */
  compact(): Promise<void>;
  close(): Promise<void>;
}

export interface CallOptions {
  readonly body?: unknown;
  readonly rawBody?: string | Buffer;
  readonly contentType?: string;
  readonly accept?: string;
  readonly headers?: Record<string, string>;
  /** Send no Authorization header. */
  readonly anonymous?: boolean;
}

export interface CallResult {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
  readonly json: any;
}

export const targetKind: "reference" | "real" =
  process.env.KUBESDK_TEST_TARGET === "real" ? "real" : "reference";

/**
 * Wire encoding the informer suite's clients ask for: KUBESDK_TEST_ENCODING=protobuf (`pnpm
 * test:protobuf`) runs it over protobuf for built-in kinds; JSON otherwise.
 */
export const testEncoding: "json" | "protobuf" = encodingFromEnv(process.env.KUBESDK_TEST_ENCODING);

function encodingFromEnv(value: string | undefined): "json" | "protobuf" {
  if (value === undefined || value === "" || value === "json") return "json";
  if (value === "protobuf") return value;
  throw new Error(`KUBESDK_TEST_ENCODING must be "json" or "protobuf", not ${JSON.stringify(value)}`);
}

function fromKubeconfig(path: string): { url: string; token: string; ca: string | undefined } {
  const kc = YAML.parse(readFileSync(path, "utf8"));
  const cluster = kc.clusters[0].cluster;
  const user = kc.users[0].user;
  const ca = cluster["certificate-authority-data"]
    ? Buffer.from(cluster["certificate-authority-data"], "base64").toString()
    : cluster["certificate-authority"]
      ? readFileSync(cluster["certificate-authority"], "utf8")
      : undefined;
  return { url: cluster.server, token: user.token, ca };
}

export async function startTarget(options: StartOptions = {}): Promise<TestTarget> {
  let reference: RunningServer | undefined;
  let conn: { url: string; token: string; ca: string | undefined };
  let kubeconfigPath: string;
  if (targetKind === "real") {
    const path = process.env.KUBESDK_TEST_KUBECONFIG;
    if (!path) throw new Error("KUBESDK_TEST_TARGET=real needs KUBESDK_TEST_KUBECONFIG");
    kubeconfigPath = path;
    conn = fromKubeconfig(path);
  } else {
    // No simulated cluster: like the real target, nothing schedules or runs pods.
    reference = await startServer({ cluster: false, ...options });
    kubeconfigPath = join(mkdtempSync(join(tmpdir(), "kubesdk-test-")), "kubeconfig");
    writeFileSync(kubeconfigPath, reference.kubeconfig);
    conn = { url: reference.url, token: reference.token, ca: reference.ca };
  }
  const dispatcher = new Agent({ connect: conn.ca ? { ca: conn.ca } : {} });
  return {
    kind: targetKind,
    ...conn,
    kubeconfigPath,
    reference,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (!opts.anonymous) headers.authorization = `Bearer ${conn.token}`;
      if (opts.accept) headers.accept = opts.accept;
      let body: string | Buffer | undefined;
      if (opts.rawBody !== undefined) body = opts.rawBody;
      else if (opts.body !== undefined) body = JSON.stringify(opts.body);
      if (body !== undefined) headers["content-type"] = opts.contentType ?? "application/json";
      const res = await request(conn.url + path, { method: method as "GET", headers, body, dispatcher });
      const text = await res.body.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.statusCode, headers: res.headers, text, json };
    },
    async compact() {
      if (reference) {
        reference.store.compact();
        return;
      }
      const endpoint = process.env.KUBESDK_TEST_ETCD_ENDPOINT;
      if (!endpoint)
        throw new Error(
          "compacting a real apiserver needs KUBESDK_TEST_ETCD_ENDPOINT (set by pnpm test:real)",
        );
      const { compactEtcd } = await import("../../scripts/real-apiserver/compact.js");
      await compactEtcd(endpoint);
    },
    async close() {
      await dispatcher.close();
      await reference?.stop();
    },
  };
}

let counter = 0;
/** A namespace name unique to this run, so suites do not see each other's objects (also on a real server). */
export function uniqueName(prefix: string): string {
  counter++;
  return `${prefix}-${process.pid.toString(36)}-${Date.now().toString(36)}-${counter}`;
}
