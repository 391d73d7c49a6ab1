/**
 * A replayed watch's bytes (watch/replay-join.ts): frames joined straight from the
 * objects' texts kept from their writes (storage/object-text.ts), encoded afresh when no text is
 * kept (deletes, an object leaving the selector), or copied from the hub's cache of live frames.
 * Each is checked against bytes made another way: the write's response body, or a live watch.
 */
import { request } from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server.js";
import { FRAME_LOG_BYTES } from "../src/watch/frame-log.js";

let server: RunningServer;
const path = "/api/v1/namespaces/default/configmaps";

beforeAll(async () => {
  server = await startServer({ controllers: false, cluster: false });
});
afterAll(async () => {
  await server.stop();
});

/** One request; the status and the body's text. */
function call(method: string, url: string, body?: unknown, contentType = "application/json") {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      `${server.url}${url}`,
      {
        method,
        ca: server.ca,
        headers: { authorization: `Bearer ${server.token}`, "content-type": contentType },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/**
 * A watch's body up to its `lines`-th newline (the connection is then dropped). `open` resolves with
 * the response's head: the server sends it once the watch is registered for live events.
 */
function watchLines(url: string, lines: number) {
  let opened: () => void = () => {};
  const open = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const body = new Promise<string>((resolve, reject) => {
    const req = request(
      `${server.url}${url}`,
      { ca: server.ca, headers: { authorization: `Bearer ${server.token}` } },
      (res) => {
        opened();
        const chunks: Buffer[] = [];
        let seen = 0;
        res.on("data", (c: Buffer) => {
          chunks.push(c);
          for (const byte of c) if (byte === 0x0a) seen++;
          if (seen >= lines) {
            resolve(Buffer.concat(chunks).toString("utf8"));
            req.destroy();
          }
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
  return { open, body };
}

const read = (url: string, lines: number) => watchLines(url, lines).body;
const frame = (type: string, objectText: string) => `{"type":"${type}","object":${objectText}}\n`;

async function write(method: string, url: string, body: unknown, contentType?: string): Promise<string> {
  const res = await call(method, url, body, contentType);
  expect(res.status).toBeLessThan(300);
  // The body is the object's JSON and a newline.
  expect(res.text.endsWith("}\n")).toBe(true);
  return res.text.slice(0, -1);
}

describe("a replayed watch's bytes", () => {
  it("are the written objects' texts, fresh encodings where no text is kept, and the live frames", async () => {
    const list = JSON.parse((await call("GET", path)).text) as { metadata: { resourceVersion: string } };
    const from = `${path}?watch=1&resourceVersion=${list.metadata.resourceVersion}`;
    const labels = { rp: "in" };
    const createdA = await write("POST", path, { metadata: { name: "rb-a", labels }, data: { k: "plain" } });
    const createdB = await write("POST", path, {
      metadata: { name: "rb-b", labels, annotations: { "example.com/note": "名前 ☃ \u2028 ü" } },
      data: { e: "😀 é", k: "x".repeat(300) },
    });
    const putA = await write("PUT", `${path}/rb-a`, { ...JSON.parse(createdA), data: { k: "changed" } });
    const patchB = await write(
      "PATCH",
      `${path}/rb-b`,
      { metadata: { labels: { rp: "out" } } },
      "application/merge-patch+json",
    );
    await write("DELETE", `${path}/rb-a`, undefined);

    const all = await read(from, 5);
    const lines = all.split("\n").slice(0, 5);
    expect(lines.slice(0, 4).map((l) => `${l}\n`)).toEqual([
      frame("ADDED", createdA),
      frame("ADDED", createdB),
      frame("MODIFIED", putA),
      frame("MODIFIED", patchB),
    ]);
    // The delete's frame has no kept text: encoded from the object, as a live watch encodes it.
    const deleted = JSON.parse(lines[4] as string) as {
      type: string;
      object: { metadata: { name: string } };
    };
    expect([deleted.type, deleted.object.metadata.name]).toEqual(["DELETED", "rb-a"]);
    expect(JSON.stringify(deleted)).toBe(lines[4]);

    // Leaving the selector: DELETED with the last state that matched, at the patch's revision.
    const leftB = JSON.parse(createdB) as { metadata: { resourceVersion: string } };
    leftB.metadata.resourceVersion = (JSON.parse(patchB) as typeof leftB).metadata.resourceVersion;
    const selected = await read(`${from}&labelSelector=rp%3Din`, 5);
    expect(selected).toBe(
      [
        frame("ADDED", createdA),
        frame("ADDED", createdB),
        frame("MODIFIED", putA),
        frame("DELETED", JSON.stringify(leftB)),
        `${lines[4]}\n`,
      ].join(""),
    );
    // The same query again: the same bytes.
    expect(await read(from, 5)).toBe(all);

    // A write a live watch saw: the replay copies the live watch's frame.
    const now = JSON.parse((await call("GET", path)).text) as typeof list;
    const live = watchLines(`${path}?watch=1&resourceVersion=${now.metadata.resourceVersion}`, 1);
    await live.open;
    const createdC = await write("POST", path, { metadata: { name: "rb-c", labels }, data: { k: "live" } });
    const liveFrame = await live.body;
    expect(liveFrame).toBe(frame("ADDED", createdC));
    expect(await read(from, 6)).toBe(all + liveFrame);
  });

  it("show an object entering the selector as ADDED, with its write's text", async () => {
    const list = JSON.parse((await call("GET", path)).text) as { metadata: { resourceVersion: string } };
    const from = `${path}?watch=1&resourceVersion=${list.metadata.resourceVersion}`;
    const created = await write("POST", path, { metadata: { name: "rb-d", labels: { rp: "out" } } });
    const patched = await write(
      "PATCH",
      `${path}/rb-d`,
      { metadata: { labels: { rp: "in" } } },
      "application/merge-patch+json",
    );
    expect(await read(`${from}&labelSelector=rp%3Din`, 1)).toBe(frame("ADDED", patched));
    expect(await read(from, 2)).toBe(frame("ADDED", created) + frame("MODIFIED", patched));
  });

  it("are the same for a selector of label equalities as for the same selection by sets", async () => {
    const list = JSON.parse((await call("GET", path)).text) as { metadata: { resourceVersion: string } };
    const from = `${path}?watch=1&resourceVersion=${list.metadata.resourceVersion}`;
    const merge = "application/merge-patch+json";
    const inside = { rq: "in", tier: "db" };
    const a = await write("POST", path, { metadata: { name: "rq-a", labels: inside }, data: { k: "☃" } });
    await write("POST", path, { metadata: { name: "rq-b", labels: { rq: "in" } } });
    await write("POST", path, { metadata: { name: "rq-c", labels: { rq: "out", tier: "db" } } });
    await write("PATCH", `${path}/rq-c`, { metadata: { labels: { rq: "in" } } }, merge);
    await write("PATCH", `${path}/rq-a`, { data: { k: "changed" } }, merge);
    await write("PATCH", `${path}/rq-a`, { metadata: { labels: { tier: "web" } } }, merge);
    await write("DELETE", `${path}/rq-c`, undefined);
    await write("POST", "/api/v1/namespaces", { metadata: { name: "rq-other" } });
    await write("POST", "/api/v1/namespaces/rq-other/configmaps", {
      metadata: { name: "rq-a", labels: inside },
    });
    const b = await write("POST", path, { metadata: { name: "rq-e", labels: inside } });

    // rq-a: ADDED, MODIFIED, DELETED (leaving); rq-c: ADDED (entering), DELETED; rq-e: ADDED.
    const equalities = await read(`${from}&labelSelector=rq%3Din,tier%3D%3Ddb`, 6);
    const sets = await read(`${from}&labelSelector=rq+in+(in),tier+in+(db)`, 6);
    expect(equalities).toBe(sets);
    const events = equalities
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
      "ADDED rq-a",
      "ADDED rq-c",
      "MODIFIED rq-a",
      "DELETED rq-a",
      "DELETED rq-c",
      "ADDED rq-e",
    ]);
    expect(equalities.startsWith(frame("ADDED", a))).toBe(true);
    expect(equalities.endsWith(frame("ADDED", b))).toBe(true);
    // Across namespaces, with no selector at all: the same bytes as with a selector every object meets.
    const all = "/api/v1/configmaps?watch=1";
    const rv = list.metadata.resourceVersion;
    expect(await read(`${all}&resourceVersion=${rv}`, 9)).toBe(
      await read(`${all}&resourceVersion=${rv}&labelSelector=rq+notin+(nothing)`, 9),
    );
  });

  describe("over stretches of creates alike (the frame log's label groups)", () => {
    /** The watch's replay from `rv` by label groups, and the same by the per-event path (a field selector every object meets). */
    async function replayed(url: string, lines: number): Promise<string> {
      const byGroups = await read(url, lines);
      expect(await read(`${url}&fieldSelector=metadata.name!%3Dnothing`, lines)).toBe(byGroups);
      return byGroups;
    }
    const rvOf = (text: string) =>
      (JSON.parse(text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;

    it("are cut where the namespace, the labels or the event type changes", async () => {
      const from = rvOf((await call("GET", path)).text);
      await write("POST", "/api/v1/namespaces", { metadata: { name: "rg-other" } });
      const inGroup = { rg: "in", shard: "1" };
      const post = (name: string, labels: Record<string, string>, ns = "default") =>
        write("POST", `/api/v1/namespaces/${ns}/configmaps`, {
          metadata: { name, labels },
          data: { k: name },
        });
      const a1 = await post("rg-1", inGroup);
      const a2 = await post("rg-2", inGroup);
      const otherNs = await post("rg-3", inGroup, "rg-other");
      const a3 = await post("rg-4", inGroup);
      const otherShard = await post("rg-5", { rg: "in", shard: "2" });
      const out = await post("rg-6", { rg: "out", shard: "1" });
      const a4 = await post("rg-7", inGroup);
      // Not in the log (a delete keeps no text): the stretch ends before it and starts again after.
      await write("DELETE", `${path}/rg-2`, undefined);
      const a5 = await post("rg-8", inGroup);
      const put = await write("PUT", `${path}/rg-1`, { ...JSON.parse(a1), data: { k: "changed" } });
      const selected = [a1, a2, a3, otherShard, a4].map((o) => frame("ADDED", o));
      const lines = (await replayed(`${path}?watch=1&resourceVersion=${from}&labelSelector=rg%3Din`, 8))
        .split("\n")
        .map((l) => `${l}\n`);
      expect(lines.slice(0, 5)).toEqual(selected);
      expect(lines[5]).toMatch(/^\{"type":"DELETED","object":\{.*"name":"rg-2"/);
      expect(lines.slice(6, 8)).toEqual([frame("ADDED", a5), frame("MODIFIED", put)]);
      expect(await replayed(`${path}?watch=1&resourceVersion=${from}&labelSelector=shard%3D2`, 1)).toBe(
        frame("ADDED", otherShard),
      );
      const everywhere = [a2, otherNs, a3, otherShard, out, a4].map((o) => frame("ADDED", o));
      const all = `/api/v1/configmaps?watch=1&resourceVersion=${rvOf(a1)}&labelSelector=shard`;
      const allLines = (await replayed(all, 9)).split("\n").map((l) => `${l}\n`);
      expect(allLines.slice(0, 6)).toEqual(everywhere);
      expect(allLines[6]).toBe(lines[5]);
      expect(allLines.slice(7, 9)).toEqual([frame("ADDED", a5), frame("MODIFIED", put)]);
    });

    it("start at the first event after the resourceVersion, wherever it falls in a stretch", async () => {
      const from = rvOf((await call("GET", path)).text);
      const created: string[] = [];
      for (let i = 0; i < 6; i++)
        created.push(await write("POST", path, { metadata: { name: `rs-${i}`, labels: { rs: "in" } } }));
      const starts = [from, ...created.map(rvOf)];
      for (let i = 0; i < created.length; i++) {
        const url = `${path}?watch=1&resourceVersion=${starts[i]}&labelSelector=rs%3Din`;
        expect(await replayed(url, created.length - i)).toBe(
          created
            .slice(i)
            .map((o) => frame("ADDED", o))
            .join(""),
        );
      }
    });

    it("reach back past the log's oldest chunk, to texts kept by the objects", async () => {
      const from = rvOf((await call("GET", path)).text);
      const data = { k: "x".repeat(20_000) };
      const count = Math.ceil((2 * FRAME_LOG_BYTES) / 20_000);
      const created: string[] = [];
      for (let i = 0; i < count; i++)
        created.push(
          await write("POST", path, { metadata: { name: `ro-${i}`, labels: { ro: "in" } }, data }),
        );
      const url = `${path}?watch=1&resourceVersion=${from}&labelSelector=ro%3Din`;
      const body = await replayed(url, count);
      expect(body.length).toBe(created.reduce((n, o) => n + frame("ADDED", o).length, 0));
      expect(body === created.map((o) => frame("ADDED", o)).join("")).toBe(true);
    });
  });
});
