/**
 * Fault controls of the reference server. Reason for reference-only: fault injection is a feature of
 * the reference server (a real apiserver has no such controls); the real-server harness covers the
 * faults it can produce (etcd compaction) in its own suites.
 */

import type { RunningServer } from "@kubesdk/server";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, targetKind, uniqueName } from "../support/target.js";
import { openWatch } from "../support/watch-client.js";

let t: TestTarget;
let server: RunningServer;
let ns: string;
const base = () => `/api/v1/namespaces/${ns}/configmaps`;
const create = (name: string, data: Record<string, string> = {}) =>
  t.call("POST", base(), { body: { metadata: { name }, data } });

/** Opens a watch and collects its raw bytes until the stream ends. */
async function rawWatch(path: string, agent: Agent, accept?: string) {
  const res = await request(t.url + path, {
    headers: { authorization: `Bearer ${t.token}`, ...(accept === undefined ? {} : { accept }) },
    dispatcher: agent,
  });
  let text = "";
  res.body.setEncoding("utf8");
  const ended = new Promise<string>((resolve) => {
    res.body.on("data", (c: string) => {
      text += c;
    });
    res.body.on("end", () => resolve(text));
    res.body.on("error", () => resolve(text));
  });
  return { res, ended, text: () => text };
}

describe.runIf(targetKind === "reference")("fault controls", () => {
  let agent: Agent;
  beforeAll(async () => {
    t = await startTarget({ faultApi: true, faultSeed: 7, watch: { maxBufferedBytes: 64 * 1024 } });
    server = t.reference as RunningServer;
    ns = uniqueName("faults");
    await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
    agent = new Agent({ connect: { ca: t.ca } });
  });
  afterAll(async () => {
    await agent.close();
    await t.close();
  });

  it("fails the next N matching requests with 429 and Retry-After, then serves again", async () => {
    server.faults.failNext(
      2,
      { status: 429, retryAfterSeconds: 3 },
      { resource: "configmaps", verb: "list" },
    );
    const a = await t.call("GET", base());
    const b = await t.call("GET", base());
    const c = await t.call("GET", base());
    expect([a.status, b.status, c.status]).toEqual([429, 429, 200]);
    expect(a.headers["retry-after"]).toBe("3");
    expect(a.json).toMatchObject({ reason: "TooManyRequests", code: 429, details: { retryAfterSeconds: 3 } });
    // Other resources were not affected.
    server.faults.failNext(1, { status: 503 }, { resource: "secrets" });
    expect((await t.call("GET", base())).status).toBe(200);
    expect((await t.call("GET", `/api/v1/namespaces/${ns}/secrets`)).status).toBe(503);
  });

  it("injects 500, 504 too-large and connection resets", async () => {
    server.faults.failNext(1, { status: 500 }, { resource: "configmaps" });
    expect((await t.call("GET", base())).json.reason).toBe("InternalError");
    server.faults.failNext(1, { status: 504, tooLargeResourceVersion: true }, { resource: "configmaps" });
    const tl = await t.call("GET", base());
    expect(tl.status).toBe(504);
    expect(tl.json.details.causes[0].reason).toBe("ResourceVersionTooLarge");
    server.faults.failNext(1, { reset: true }, { resource: "configmaps" });
    await expect(t.call("GET", base())).rejects.toThrow();
    expect((await t.call("GET", base())).status).toBe(200);
  });

  it("probabilistic failures replay identically under the same seed", async () => {
    const pattern = async () => {
      server.faults.reseed(42);
      server.faults.failNext(100, { status: 503 }, { resource: "endpoints" }, 0.5);
      const out: number[] = [];
      for (let i = 0; i < 16; i++)
        out.push((await t.call("GET", `/api/v1/namespaces/${ns}/endpoints`)).status);
      server.faults.reset();
      return out;
    };
    const first = await pattern();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await pattern()).toEqual(first);
  });

  it("adds latency to matching requests", async () => {
    server.faults.addLatency(150, { resource: "configmaps", verb: "get" });
    await create("slow");
    const start = Date.now();
    expect((await t.call("GET", `${base()}/slow`)).status).toBe(200);
    // A lower bound only: the server held the request at least as long as asked.
    expect(Date.now() - start).toBeGreaterThanOrEqual(145);
    server.faults.addLatency(0, { resource: "configmaps", verb: "get" });
  });

  it("drops matching watch streams now", async () => {
    const w = await openWatch(t, `${base()}?watch=1&resourceVersion=${server.store.revision}`);
    expect(server.faults.dropWatches({ resource: "configmaps", namespace: ns })).toBeGreaterThanOrEqual(1);
    expect(await w.next()).toBeNull();
    await w.close();
  });

  it("ends a stream in the middle of an event", async () => {
    const w = await rawWatch(`${base()}?watch=1&resourceVersion=${server.store.revision}`, agent);
    expect(server.faults.breakMidEvent({ resource: "configmaps", namespace: ns })).toBe(1);
    await create("torn", { big: "x".repeat(1000) });
    const text = await w.ended;
    expect(text.length).toBeGreaterThan(0);
    expect(text.endsWith("\n")).toBe(false);
    expect(() => JSON.parse(text)).toThrow();
  });

  it("emits a malformed event line and keeps the stream going", async () => {
    const w = await rawWatch(`${base()}?watch=1&resourceVersion=${server.store.revision}`, agent);
    expect(server.faults.malformedEvent({ resource: "configmaps", namespace: ns })).toBe(1);
    await create("bad-line");
    await create("good-line");
    server.faults.dropWatches({ resource: "configmaps", namespace: ns });
    const lines = (await w.ended).split("\n").filter(Boolean);
    expect(() => JSON.parse(lines[0] as string)).toThrow();
    expect(JSON.parse(lines[1] as string).object.metadata.name).toBe("good-line");
  });

  it("stalls a stream: headers sent, then silence", async () => {
    const w = await rawWatch(`${base()}?watch=1&resourceVersion=${server.store.revision}`, agent);
    expect(w.res.statusCode).toBe(200);
    server.faults.stallWatches({ resource: "configmaps", namespace: ns });
    await create("unseen");
    server.faults.unstall();
    server.faults.dropWatches({ resource: "configmaps", namespace: ns });
    expect(await w.ended).toBe("");
  });

  it("pauses and resumes event delivery without losing events", async () => {
    const w = await openWatch(t, `${base()}?watch=1&resourceVersion=${server.store.revision}`);
    server.faults.pauseDelivery();
    await create("held-1");
    await create("held-2");
    server.faults.resumeDelivery();
    expect((await w.next())?.object.metadata.name).toBe("held-1");
    expect((await w.next())?.object.metadata.name).toBe("held-2");
    await w.close();
  });

  it("restart keeps the data, ends every watch and expires old revisions", async () => {
    const old = server.store.revision;
    await create("survivor");
    const w = await openWatch(t, `${base()}?watch=1&resourceVersion=${old}`);
    expect((await w.next())?.object.metadata.name).toBe("survivor");
    server.faults.restart();
    expect(await w.next()).toBeNull();
    expect((await t.call("GET", `${base()}/survivor`)).status).toBe(200);
    const again = await openWatch(t, `${base()}?watch=1&resourceVersion=${old}`);
    const err = await again.next();
    expect(err?.type).toBe("ERROR");
    expect(err?.object.code).toBe(410);
    await again.close();
  });

  it("is controllable over HTTP when enabled, and every fault is logged", async () => {
    const res = await t.call("POST", "/_kubesdk/faults/compact", { body: {} });
    expect(res.status).toBe(200);
    expect(res.json.revision).toBe(server.store.revision);
    const fail = await t.call("POST", "/_kubesdk/faults/fail-next", {
      body: { count: 1, kind: { status: 503 }, match: { resource: "configmaps" } },
    });
    expect(fail.status).toBe(200);
    expect((await t.call("GET", base())).status).toBe(503);
    const log = await t.call("GET", "/_kubesdk/faults/log");
    const faults = log.json.log.map((e: { fault: string }) => e.fault);
    expect(faults).toEqual(
      expect.arrayContaining(["compact", "fail-next", "injected", "restart", "pause", "resume", "stall"]),
    );
  });
});

describe.runIf(targetKind === "reference")("watch fan-out", () => {
  let agent: Agent;
  beforeAll(async () => {
    t = await startTarget({ watch: { maxBufferedBytes: 256 * 1024 } });
    server = t.reference as RunningServer;
    ns = uniqueName("fanout");
    await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
    // A thousand TLS handshakes at once on a loaded 2-core machine can outlast undici's 10 s
    // connect timeout; the test is about fan-out, not handshake speed.
    agent = new Agent({ connect: { ca: t.ca, timeout: 120_000 }, connections: 2000 });
  });
  afterAll(async () => {
    await agent.close();
    await t.close();
  });

  it("1 000 watchers each get the event, encoded once", async () => {
    const rv = server.store.revision;
    const watchers: Awaited<ReturnType<typeof rawWatch>>[] = [];
    // Opened a hundred at a time, so connection setup does not come in one burst.
    for (let batch = 0; batch < 10; batch++) {
      const opened = Array.from({ length: 100 }, () =>
        rawWatch(`${base()}?watch=1&resourceVersion=${rv}`, agent),
      );
      watchers.push(...(await Promise.all(opened)));
    }
    expect(server.watches.streams.size).toBe(1000);
    const before = server.watches.hub.encodedFrames;
    await create("fan");
    server.faults.dropWatches({ namespace: ns });
    const texts = await Promise.all(watchers.map((w) => w.ended));
    for (const text of texts) expect(JSON.parse(text.trim()).object.metadata.name).toBe("fan");
    expect(server.watches.hub.encodedFrames - before).toBe(1);
  }, 180_000);

  it("watches from one resourceVersion replay its history encoded once, the same bytes to each", async () => {
    const rv = server.store.revision;
    const names = ["replay-a", "replay-b", "replay-c"];
    for (const name of names) expect((await create(name)).status).toBe(201);
    const replay = (accept?: string) =>
      Promise.all(
        Array.from({ length: 5 }, () => rawWatch(`${base()}?watch=1&resourceVersion=${rv}`, agent, accept)),
      );
    const before = server.watches.hub.encodedFrames;
    const watchers = await replay();
    const protobuf = await replay("application/vnd.kubernetes.protobuf");
    server.faults.dropWatches({ namespace: ns });
    const texts = await Promise.all(watchers.map((w) => w.ended));
    const events = (texts[0] as string)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual(names.map((n) => ["ADDED", n]));
    for (const text of texts) expect(text).toBe(texts[0]);
    const protobufTexts = await Promise.all(protobuf.map((w) => w.ended));
    for (const text of protobufTexts) expect([text.length > 0, text]).toEqual([true, protobufTexts[0]]);
    // JSON frames are the texts the writes kept (storage/object-text.ts): nothing encoded for them.
    // Protobuf frames are encoded once, for every watch.
    expect(server.watches.hub.encodedFrames - before).toBe(names.length);
  }, 60_000);

  it("a watcher that stops reading is cut off without holding back writers or other watchers", async () => {
    const rv = server.store.revision;
    const stuck = await request(`${t.url}${base()}?watch=1&resourceVersion=${rv}`, {
      headers: { authorization: `Bearer ${t.token}` },
      dispatcher: agent,
    });
    stuck.body.pause();
    let stuckEnded = false;
    stuck.body.on("error", () => {
      stuckEnded = true;
    });
    stuck.body.on("close", () => {
      stuckEnded = true;
    });
    const healthy = await openWatch(t, `${base()}?watch=1&resourceVersion=${rv}`);
    const big = "y".repeat(512 * 1024);
    for (let i = 0; i < 40; i++) expect((await create(`big-${i}`, { big })).status).toBe(201);
    for (let i = 0; i < 40; i++) expect((await healthy.next())?.object.metadata.name).toBe(`big-${i}`);
    // The stuck watcher's stream was closed by the server (slow reader), not kept growing.
    expect(server.watches.streams.size).toBe(1);
    stuck.body.resume();
    stuck.body.on("data", () => {});
    await new Promise<void>((resolve) => {
      if (stuckEnded) resolve();
      else stuck.body.on("close", () => resolve());
    });
    await healthy.close();
  }, 180_000);
});
