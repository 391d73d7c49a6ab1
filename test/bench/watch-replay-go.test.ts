/**
 * The replay rows' Go reader (scripts/bench/watch-replay-go/) against a real server, both targets:
 * it counts a watch's events exactly and refuses a stream that ends early, whose last event is not
 * the one expected, or that is not a 200 — so a server cannot make the replay rows faster by
 * sending less. Needs Go on the PATH (the reader is built on first use, then cached).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextMessage } from "../../scripts/bench/bench-child.js";
import { startReplayChildren } from "../../scripts/bench/watch-replay-children.js";
import type { ReplaySetup } from "../../scripts/bench/watch-replay-client.js";
import { goReaderBinary } from "../../scripts/bench/watch-replay-go.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

/** Enough events of ~1.3 KiB each to span several TLS records and chunks. */
const EVENTS = 40;

let t: TestTarget;
let ns: string;
/** The resourceVersion before the first event, then each object's, in order. */
let from: string;
let versions: string[];

beforeAll(async () => {
  goReaderBinary(); // a first build takes a while; later runs find it cached
  t = await startTarget({ controllers: false });
  ns = uniqueName("replay-go");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  from = (await t.call("GET", `${path}?limit=1`)).json.metadata.resourceVersion;
  versions = [];
  for (let i = 0; i < EVENTS; i++) {
    const body = { metadata: { name: `cm-${i}`, labels: { app: "bench" } }, data: { v: "x".repeat(1200) } };
    versions.push((await t.call("POST", path, { body })).json.metadata.resourceVersion);
  }
}, 300_000);
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

/** One Go reader process through setup → ready → go; resolves with its last message. */
async function read(overrides: Partial<ReplaySetup>): Promise<Record<string, unknown>> {
  const setup: ReplaySetup = {
    url: t.url,
    ca: t.ca ?? "",
    token: t.token,
    http2: false,
    path: `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${from}&labelSelector=app%3Dbench`,
    watchers: 3,
    events: EVENTS,
    lastResourceVersion: versions.at(-1) as string,
    ...overrides,
  };
  const [child] = startReplayChildren("go", 1);
  if (child === undefined) throw new Error("no reader process");
  try {
    const ready = nextMessage(child);
    child.send({ setup });
    const first = (await ready) as Record<string, unknown> | string;
    if (first !== "ready") return first as Record<string, unknown>;
    const last = nextMessage(child);
    child.send("go");
    return (await last) as Record<string, unknown>;
  } finally {
    child.stop();
  }
}

describe("the Go replay reader", () => {
  it("reads every watch to its last event and reports CPU, wall time and bytes", async () => {
    const { done } = (await read({})) as { done: { cpuMicros: number; wallMs: number; bytes: number } };
    expect(done.cpuMicros).toBeGreaterThan(0);
    expect(done.wallMs).toBeGreaterThan(0);
    // Three watches, each at least its events' data.
    expect(done.bytes).toBeGreaterThan(3 * EVENTS * 1200);
  }, 60_000);

  it("counts lines exactly: the k-th line is the k-th object's ADDED", async () => {
    for (const k of [1, EVENTS - 1]) {
      const answer = await read({ events: k, lastResourceVersion: versions[k - 1] as string });
      expect(answer).toHaveProperty("done");
    }
  }, 60_000);

  it("refuses a stream whose last event is not the expected one", async () => {
    const answer = await read({ lastResourceVersion: versions[0] as string });
    expect(answer.failed).toBe(`last event is ADDED at ${versions.at(-1)}, expected ADDED at ${versions[0]}`);
  }, 60_000);

  it("refuses a stream the server ends before the expected events", async () => {
    // timeoutSeconds makes the server end the watch after it sent the EVENTS it has.
    const path = `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${from}&timeoutSeconds=1`;
    const answer = await read({ path, watchers: 1, events: EVENTS + 1 });
    expect(answer.failed).toBe(`stream ended after ${EVENTS} of ${EVENTS + 1} events`);
  }, 60_000);

  it("refuses a watch that is not answered 200", async () => {
    const answer = await read({ token: "not-a-token" });
    expect(answer.failed).toBe('watch answered "HTTP/1.1 401"');
  }, 60_000);
});
