/**
 * Hardening, limit-sized bodies off the event loop (reference server only: it compares two of its
 * own configurations). Big JSON and YAML bodies are decoded on a worker thread and a large create
 * pauses between its steps; one server does that (default threshold), another decodes everything
 * in-process. The same requests must give both the same answers: the same stored objects and
 * managedFields, the same warnings, the same Status for malformed or ill-typed big bodies.
 */
import { type RunningServer, startServer } from "@kubesdk/server";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

interface Side {
  readonly server: RunningServer;
  readonly agent: Agent;
}
let offThread: Side;
let inProcess: Side;
const ns = "offthread";
const cms = `/api/v1/namespaces/${ns}/configmaps`;

async function side(offThreadDecodeBytes: number | undefined): Promise<Side> {
  const server = await startServer(
    offThreadDecodeBytes === undefined ? {} : { settings: { offThreadDecodeBytes } },
  );
  return { server, agent: new Agent({ connect: { ca: server.ca } }) };
}

/** Server-chosen values (uid, times, resourceVersion) blanked, so the two servers' answers compare. */
function normalized(text: string): unknown {
  return JSON.parse(text, (key, value) =>
    ["uid", "creationTimestamp", "resourceVersion", "time"].includes(key) ? "<set>" : value,
  );
}

async function send(s: Side, method: string, path: string, body: string, contentType: string) {
  const res = await request(s.server.url + path, {
    method: method as "POST",
    headers: { authorization: `Bearer ${s.server.token}`, "content-type": contentType },
    body,
    dispatcher: s.agent,
  });
  return { status: res.statusCode, warning: res.headers.warning, body: normalized(await res.body.text()) };
}

/** Sends the request to both servers; returns the off-thread answer after checking it equals the other. */
async function both(method: string, path: string, body: string, contentType = "application/json") {
  const off = await send(offThread, method, path, body, contentType);
  const inp = await send(inProcess, method, path, body, contentType);
  expect(off).toEqual(inp);
  return off;
}

const yamlConfigMap = (name: string, keys: number, value: (i: number) => string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${Array.from(
    { length: keys },
    (_, i) => `  k${i}: "${value(i)}"\n`,
  ).join("")}`;
const bigData = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`key-${i}`, "v".repeat(20)]));

beforeAll(async () => {
  [offThread, inProcess] = await Promise.all([side(undefined), side(Number.POSITIVE_INFINITY)]);
  await both("POST", "/api/v1/namespaces", JSON.stringify({ metadata: { name: ns } }));
  await both("POST", cms, JSON.stringify({ metadata: { name: "small" }, data: { a: "b" } }));
});
afterAll(async () => {
  for (const s of [offThread, inProcess]) {
    await s?.agent.close();
    await s?.server.stop();
  }
});

describe("the same results above the off-thread threshold", () => {
  it("a big YAML apply creates, then updates, exactly what the in-process path stores", async () => {
    const path = `${cms}/applied?fieldManager=tester`;
    const created = await both(
      "PATCH",
      path,
      yamlConfigMap("applied", 6000, (i) => `v${i}`),
      "application/apply-patch+yaml",
    );
    expect(created.status).toBe(201);
    const updated = await both(
      "PATCH",
      path,
      yamlConfigMap("applied", 6000, (i) => `w${i % 7}`),
      "application/apply-patch+yaml",
    );
    expect(updated.status).toBe(200);
    const stored = await both("GET", `${cms}/applied`, "");
    expect(Object.keys((stored.body as { data: object }).data)).toHaveLength(6000);
  });

  it("a big JSON create and a 10,000-operation JSON patch store what the in-process path stores", async () => {
    const revision = JSON.stringify({ metadata: { name: "big" }, revision: 1, data: bigData(20_000) });
    expect((await both("POST", `/apis/apps/v1/namespaces/${ns}/controllerrevisions`, revision)).status).toBe(
      201,
    );
    const ops = Array.from({ length: 10_000 }, (_, i) => ({ op: "add", path: `/data/p${i}`, value: `${i}` }));
    const patched = await both("PATCH", `${cms}/small`, JSON.stringify(ops), "application/json-patch+json");
    expect(patched.status).toBe(200);
  });
});

describe("large updates", () => {
  it("a big PUT and a big merge patch store what the in-process path stores", async () => {
    const body = JSON.stringify({ metadata: { name: "put" }, data: bigData(20_000) });
    expect((await both("POST", cms, body)).status).toBe(201);
    const changed = JSON.stringify({ metadata: { name: "put" }, data: { ...bigData(19_000), extra: "x" } });
    expect((await both("PUT", `${cms}/put`, changed)).status).toBe(200);
    const merge = JSON.stringify({ data: { ...bigData(5_000), "key-1": null, more: "y" } });
    expect((await both("PATCH", `${cms}/put`, merge, "application/merge-patch+json")).status).toBe(200);
  });

  it("small writes landing while a big patch of the same object pauses make neither fail", async () => {
    const s = offThread;
    await send(
      s,
      "POST",
      cms,
      JSON.stringify({ metadata: { name: "race" }, data: { a: "0" } }),
      "application/json",
    );
    let bigDone = false;
    const big = send(
      s,
      "PATCH",
      `${cms}/race`,
      JSON.stringify({ data: bigData(20_000) }),
      "application/merge-patch+json",
    );
    void big.then(() => {
      bigDone = true;
    });
    // One small write after another for as long as the big one runs: some land during its pauses.
    const small: number[] = [];
    do {
      const body = JSON.stringify({ data: { [`small-${small.length}`]: "x" } });
      small.push((await send(s, "PATCH", `${cms}/race`, body, "application/merge-patch+json")).status);
    } while (!bigDone);
    expect((await big).status).toBe(200);
    expect(small.every((code) => code === 200)).toBe(true);
    const stored = await send(s, "GET", `${cms}/race`, "", "application/json");
    const data = (stored.body as { data: Record<string, string> }).data;
    expect(Object.keys(data).length).toBe(20_001 + small.length);
  });
});

describe("the same Status for bad big bodies", () => {
  const big = JSON.stringify({ metadata: { name: "bad" }, data: bigData(20_000) });
  it.each([
    ["truncated JSON", big.slice(0, -2), "application/json", 400],
    ["a YAML duplicate key", `${yamlConfigMap("bad", 6000, String)}  k1: "again"\n`, "application/yaml", 400],
    [
      "a number where a string goes",
      big.replace('"key-7":"vvvvvvvvvvvvvvvvvvvv"', '"key-7":7'),
      "application/json",
      400,
    ],
    [
      "too deep",
      `{"metadata":{"name":"d"},"data":${'{"a":'.repeat(600)}1${"}".repeat(600)},"x":"${"y".repeat(300_000)}"}`,
      "application/json",
      400,
    ],
  ])("%s", async (_name, body, contentType, code) => {
    const res = await both("POST", cms, body, contentType);
    expect(res.status).toBe(code);
  });

  it("repeated keys of a big body under fieldValidation=Strict", async () => {
    const res = await both("POST", `${cms}?fieldValidation=Strict`, big.replace("}}", ',"key-1":"again"}}'));
    expect([res.status, (res.body as { message: string }).message]).toEqual([
      400,
      expect.stringContaining("key-1"),
    ]);
  });
});
