/**
 * Shared pieces of the informer suites: a transport to the test target, the reference server's
 * request log, waiting for informer events (bounded, failing the test), a recording handler and
 * server-side views to compare the store with.
 */

import type { DeletedFinalStateUnknown, Informer, InformerEvents } from "@kubesdk/informer";
import type { KubernetesObject } from "@kubesdk/models";
import { createTransport, type HttpTransport, loadClusterConnection } from "@kubesdk/transport";
import type { TestTarget } from "../../support/target.js";

/** A transport to the target (optionally through another address, such as a TCP proxy). */
export async function connect(t: TestTarget, server?: string): Promise<HttpTransport> {
  const conn = await loadClusterConnection({ path: t.kubeconfigPath, inCluster: false });
  return createTransport(server === undefined ? conn : { ...conn, server });
}

/** Backoff small enough for tests; still exponential. */
export const FAST_BACKOFF = { initialMs: 10, maxMs: 200 } as const;

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly status: number;
  readonly line: string;
}

/** The reference server's request log (`startServer({ log })`): one entry per finished request. */
export class RequestLog {
  readonly entries: LoggedRequest[] = [];
  readonly faults: string[] = [];
  readonly #waiters = new Set<() => void>();

  /** Pass this as `startTarget({ log })`. */
  readonly sink = (line: string): void => {
    const m = /^(\S+) (\S+) (\d{3}) \d+ms$/.exec(line);
    if (m === null) {
      this.faults.push(line);
      return;
    }
    const url = new URL(m[2] as string, "https://x");
    this.entries.push({
      method: m[1] as string,
      path: url.pathname,
      query: url.searchParams,
      status: Number(m[3]),
      line,
    });
    for (const w of [...this.#waiters]) w();
  };

  /**
   * GETs of a collection path by informers: lists and watches, in the order they finished. The
   * tests' own reads (see {@link serverState}) carry `pretty=false` and are left out.
   */
  reads(path: string): LoggedRequest[] {
    return this.entries.filter((e) => e.method === "GET" && e.path === path && !e.query.has("pretty"));
  }

  lists(path: string): LoggedRequest[] {
    return this.reads(path).filter((e) => e.query.get("watch") !== "true");
  }

  watches(path: string): LoggedRequest[] {
    return this.reads(path).filter((e) => e.query.get("watch") === "true");
  }

  /** Resolves when a logged request matches; fails after `timeoutMs`. */
  waitFor(pred: (e: LoggedRequest) => boolean, timeoutMs = 10_000): Promise<LoggedRequest> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = this.entries.find(pred);
        if (hit === undefined) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(hit);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`no logged request matched within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiters.add(check);
      check();
    });
  }
}

/**
 * Resolves with the arguments of the first `event` for which `pred` holds (checked from now on).
 * A safety net, not a clock: fails after `timeoutMs` with the event's name in the message.
 */
export function until<K extends keyof InformerEvents, T extends KubernetesObject = KubernetesObject>(
  informer: Informer<T>,
  event: K,
  pred: (...args: InformerEvents[K]) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<InformerEvents[K]> {
  const emitter = informer as unknown as {
    on(e: K, fn: (...a: InformerEvents[K]) => void): void;
    off(e: K, fn: (...a: InformerEvents[K]) => void): void;
  };
  return new Promise((resolve, reject) => {
    const listener = (...args: InformerEvents[K]) => {
      if (!pred(...args)) return;
      clearTimeout(timer);
      emitter.off(event, listener);
      resolve(args);
    };
    const timer = setTimeout(() => {
      emitter.off(event, listener);
      reject(new Error(`informer event "${String(event)}" did not happen within ${timeoutMs} ms`));
    }, timeoutMs);
    emitter.on(event, listener);
  });
}

/** Resolves when `cond()` holds, re-checked after every informer event; fails after `timeoutMs`. */
export function untilState<T extends KubernetesObject>(
  informer: Informer<T>,
  cond: () => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const emitter = informer as unknown as {
    on(e: string, fn: () => void): void;
    off(e: string, fn: () => void): void;
  };
  const events = ["event", "replace", "synced", "watchStart", "watchEnd", "backoff", "listDone"];
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!cond()) return;
      clearTimeout(timer);
      for (const e of events) emitter.off(e, check);
      resolve();
    };
    const timer = setTimeout(() => {
      for (const e of events) emitter.off(e, check);
      reject(new Error(`${what}: not reached within ${timeoutMs} ms`));
    }, timeoutMs);
    for (const e of events) emitter.on(e, check);
    check();
  });
}

export type Recorded =
  | { readonly type: "add"; readonly name: string; readonly rv: string; readonly initial: boolean }
  | { readonly type: "update"; readonly name: string; readonly oldRv: string; readonly rv: string }
  | { readonly type: "delete"; readonly name: string; readonly rv: string; readonly tombstone: boolean };

/** A handler that records every notification, with a way to wait for one. */
export class Recorder<T extends KubernetesObject = KubernetesObject> {
  readonly log: Recorded[] = [];
  readonly #waiters = new Set<() => void>();

  readonly handlers = {
    add: (obj: T, info: { isInInitialList: boolean }) =>
      this.#push({ type: "add", name: nameOf(obj), rv: rvOf(obj), initial: info.isInInitialList }),
    update: (oldObj: T, newObj: T) =>
      this.#push({ type: "update", name: nameOf(newObj), oldRv: rvOf(oldObj), rv: rvOf(newObj) }),
    delete: (obj: T | DeletedFinalStateUnknown<T>) => {
      const tombstone = "key" in obj && "obj" in obj;
      const o = tombstone ? (obj as DeletedFinalStateUnknown<T>).obj : (obj as T);
      this.#push({ type: "delete", name: nameOf(o), rv: rvOf(o), tombstone });
    },
  };

  of(type: Recorded["type"]): Recorded[] {
    return this.log.filter((r) => r.type === type);
  }

  /** Resolves once `pred` holds for the log; fails after `timeoutMs`. */
  until(pred: (log: readonly Recorded[]) => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!pred(this.log)) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(
          new Error(`${what}: not seen within ${timeoutMs} ms (log: ${JSON.stringify(this.log.slice(-5))})`),
        );
      }, timeoutMs);
      this.#waiters.add(check);
      check();
    });
  }

  #push(r: Recorded): void {
    this.log.push(r);
    for (const w of [...this.#waiters]) w();
  }
}

export function nameOf(obj: KubernetesObject): string {
  return obj.metadata?.name ?? "";
}

export function rvOf(obj: KubernetesObject): string {
  return obj.metadata?.resourceVersion ?? "";
}

/** name → resourceVersion of what the server holds in a namespace's collection. */
export async function serverState(t: TestTarget, path: string): Promise<Map<string, string>> {
  // pretty=false marks the request as the test's own in the request log.
  const res = await t.call("GET", `${path}?pretty=false`);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
  return new Map((res.json.items as KubernetesObject[]).map((o) => [nameOf(o), rvOf(o)] as [string, string]));
}

/** name → resourceVersion of what an informer caches. */
export function storeState<T extends KubernetesObject>(informer: Informer<T>): Map<string, string> {
  return new Map(informer.store.list().map((o) => [nameOf(o), rvOf(o)] as [string, string]));
}

export async function createNamespace(t: TestTarget, name: string): Promise<void> {
  const res = await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name } } });
  if (res.status !== 201) throw new Error(`create namespace ${name}: ${res.status} ${res.text}`);
}

export function configMapsPath(ns: string): string {
  return `/api/v1/namespaces/${ns}/configmaps`;
}

/** Creates a ConfigMap over HTTP; returns the created object. */
export async function createConfigMap(
  t: TestTarget,
  ns: string,
  name: string,
  data: Record<string, string> = {},
  labels?: Record<string, string>,
): Promise<KubernetesObject> {
  const res = await t.call("POST", configMapsPath(ns), {
    body: { metadata: { name, ...(labels ? { labels } : {}) }, data },
  });
  if (res.status !== 201) throw new Error(`create configmap ${name}: ${res.status} ${res.text}`);
  return res.json;
}

/** Replaces a ConfigMap's data (merge patch); returns the new object. */
export async function patchConfigMap(
  t: TestTarget,
  ns: string,
  name: string,
  patch: Record<string, unknown>,
): Promise<KubernetesObject> {
  const res = await t.call("PATCH", `${configMapsPath(ns)}/${name}`, {
    body: patch,
    contentType: "application/merge-patch+json",
  });
  if (res.status !== 200) throw new Error(`patch configmap ${name}: ${res.status} ${res.text}`);
  return res.json;
}

export async function deleteConfigMap(t: TestTarget, ns: string, name: string): Promise<void> {
  const res = await t.call("DELETE", `${configMapsPath(ns)}/${name}`);
  if (res.status !== 200) throw new Error(`delete configmap ${name}: ${res.status} ${res.text}`);
}
