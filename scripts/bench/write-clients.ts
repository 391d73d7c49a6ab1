/**
 * The write rows' clients (bench-writes.ts) behind one shape: the Node client (plain undici
 * requests through BenchHttp) or the Go client (write-load-go/, one process per fresh server,
 * JSON lines over stdin/stdout). Both send bench-writes.ts's requests byte for byte.
 *
 * BENCH_WRITE_CLIENT picks the HTTP/1.1 rows' client: "go" (default) or "node"; HTTP/2 rows always
 * use the Node client. At one client the Node client's own CPU per create (~170 µs on a 2-core
 * machine) was about two thirds of the reference server's, so the rows timed the client too; the Go
 * client costs a fraction of that (docs/performance.md).
 */
import { goChild, nextMessage } from "./bench-child.js";
import type { BenchHttp } from "./bench-http.js";
import { cmPath, configMap } from "./bench-objects.js";
import type { BenchTarget } from "./bench-targets.js";
import { goBenchProgram } from "./go-program.js";
import { runConcurrent } from "./stats.js";

export const WRITE_VERBS = ["create", "update", "apply", "delete"] as const;
export type WriteVerb = (typeof WRITE_VERBS)[number];

export interface WriteBatch {
  readonly wallMs: number;
  readonly latenciesMs: number[];
  /** The client process's CPU time over the batch, µs; undefined for the Node client (it shares its process). */
  readonly clientCpuMicros: number | undefined;
}

export interface WriteClient {
  readonly kind: "go" | "node";
  /** Objects cm-0 … cm-(count-1) of `ns`, one `verb` each, from `clients` concurrent clients. */
  run(verb: WriteVerb, ns: string, count: number, clients: number): Promise<WriteBatch>;
  close(): Promise<void>;
}

class WriteClientError extends Error {
  override readonly name = "WriteClientError";
  readonly code = "BENCH_WRITE_CLIENT";
}

/** One request of `verb` on object `i` of the namespace: the rows' request, for the Node client. */
export function writeRequest(http: BenchHttp, verb: WriteVerb, ns: string, i: number): Promise<unknown> {
  const name = `cm-${i}`;
  const object = configMap(ns, name, i);
  switch (verb) {
    case "create":
      return http.call("POST", cmPath(ns), object);
    case "update":
      // No resourceVersion: an unconditional update, as ConfigMaps allow.
      return http.call("PUT", `${cmPath(ns)}/${name}`, { ...object, data: { key: `updated-${i}` } });
    case "apply":
      return http.send("PATCH", `${cmPath(ns)}/${name}?fieldManager=bench&force=true`, {
        body: { ...object, data: { applied: `applied-${i}` } },
        contentType: "application/apply-patch+yaml",
      });
    case "delete":
      return http.call("DELETE", `${cmPath(ns)}/${name}`);
  }
}

export function nodeWriteClient(http: BenchHttp): WriteClient {
  return {
    kind: "node",
    async run(verb, ns, count, clients) {
      const t0 = performance.now();
      const latenciesMs = await runConcurrent(count, clients, async (i) => {
        await writeRequest(http, verb, ns, i);
      });
      return { wallMs: performance.now() - t0, latenciesMs, clientCpuMicros: undefined };
    },
    close: async () => {},
  };
}

/** The Go client's process for `target`, keeping up to `connections` connections, once it is ready. */
export async function goWriteClient(
  target: Pick<BenchTarget, "url" | "ca" | "token">,
  connections: number,
): Promise<WriteClient> {
  const child = goChild(goBenchProgram("write-load-go", "BENCH_WRITE_CLIENT=node: the Node client"));
  const exited = new Promise<void>((resolve) => child.once("exit", resolve));
  const ask = async (message: unknown): Promise<unknown> => {
    const answer = nextMessage(child);
    child.send(message);
    const got = await answer;
    if (typeof got === "object" && got !== null && "failed" in got) {
      throw new WriteClientError(`the Go write client failed: ${String(got.failed)}`);
    }
    return got;
  };
  const ready = await ask({ setup: { url: target.url, ca: target.ca, token: target.token, connections } });
  if (ready !== "ready") throw new WriteClientError("the Go write client did not answer ready");
  return {
    kind: "go",
    async run(verb, namespace, count, clients) {
      const { done } = (await ask({ run: { verb, namespace, count, clients } })) as {
        done: { wallMs: number; latenciesMs: number[]; cpuMicros: number };
      };
      return { wallMs: done.wallMs, latenciesMs: done.latenciesMs, clientCpuMicros: done.cpuMicros };
    },
    async close() {
      child.stop();
      await exited;
    },
  };
}

/** The write rows' client for this protocol: BENCH_WRITE_CLIENT's on HTTP/1.1, Node's on HTTP/2. */
export function writeClient(target: BenchTarget, http: BenchHttp, http2: boolean): Promise<WriteClient> {
  const chosen = process.env.BENCH_WRITE_CLIENT ?? "go";
  if (chosen !== "go" && chosen !== "node") {
    throw new WriteClientError(`BENCH_WRITE_CLIENT must be "go" or "node", not ${JSON.stringify(chosen)}`);
  }
  return http2 || chosen === "node" ? Promise.resolve(nodeWriteClient(http)) : goWriteClient(target, 8);
}
