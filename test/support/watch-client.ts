/**
 * A minimal watch reader for contract tests: opens a watch over real HTTP and
 * yields parsed JSON events. Deliberately independent of @kubesdk/transport,
 * so server tests do not depend on the client under test.
 */
import { Agent, request } from "undici";
import type { TestTarget } from "./target.js";

export interface WatchEventJson {
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
  object: any;
}

export interface OpenTestWatch {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** Next event, or null when the stream ended. */
  next(): Promise<WatchEventJson | null>;
  /** Reads events until `pred` matches one; returns all read. Null-terminated stream → throws. */
  until(pred: (e: WatchEventJson) => boolean): Promise<WatchEventJson[]>;
  close(): Promise<void>;
}

export async function openWatch(t: TestTarget, path: string, accept?: string): Promise<OpenTestWatch> {
  const dispatcher = new Agent({ connect: t.ca ? { ca: t.ca } : {} });
  const res = await request(t.url + path, {
    headers: { authorization: `Bearer ${t.token}`, ...(accept ? { accept } : {}) },
    dispatcher,
  });
  const queue: (WatchEventJson | null)[] = [];
  const waiters: ((e: WatchEventJson | null) => void)[] = [];
  const push = (e: WatchEventJson | null) => {
    const w = waiters.shift();
    if (w) w(e);
    else queue.push(e);
  };
  let buf = "";
  let ended = false;
  res.body.on("error", () => {});
  if (res.statusCode !== 200) await res.body.text();
  if (res.statusCode === 200) {
    res.body.setEncoding("utf8");
    res.body.on("data", (chunk: string) => {
      buf += chunk;
      let nl = buf.indexOf("\n");
      while (nl >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim() !== "") push(JSON.parse(line));
        nl = buf.indexOf("\n");
      }
    });
    const finish = () => {
      if (!ended) {
        ended = true;
        push(null);
      }
    };
    res.body.on("end", finish);
    res.body.on("error", finish);
    res.body.on("close", finish);
  }
  const next = () =>
    new Promise<WatchEventJson | null>((resolve) => {
      if (queue.length > 0) resolve(queue.shift() as WatchEventJson | null);
      else if (res.statusCode !== 200) resolve(null);
      else waiters.push(resolve);
    });
  return {
    status: res.statusCode,
    headers: res.headers,
    next,
    async until(pred) {
      const seen: WatchEventJson[] = [];
      for (;;) {
        const e = await next();
        if (e === null)
          throw new Error(
            `watch ended before the expected event; saw ${JSON.stringify(seen.map((x) => x.type))}`,
          );
        seen.push(e);
        if (pred(e)) return seen;
      }
    },
    async close() {
      res.body.destroy();
      await dispatcher.destroy();
    },
  };
}
