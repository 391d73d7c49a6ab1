/**
 * The write rows' Go client (scripts/bench/write-load-go/) against a real server, both targets: it
 * sends bench-writes.ts's requests (the objects land as the Node client would write them), reports
 * one latency per request, and refuses an answer of 300 or more, so a server cannot make the write
 * rows faster by failing them. Needs Go on the PATH (the client is built on first use, then cached).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goBenchProgram } from "../../scripts/bench/go-program.js";
import { goWriteClient, type WriteClient } from "../../scripts/bench/write-clients.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

const COUNT = 6;

let t: TestTarget;
let ns: string;
let client: WriteClient;

beforeAll(async () => {
  goBenchProgram("write-load-go", "a Go toolchain"); // a first build takes a while; later runs find it cached
  t = await startTarget({ controllers: false });
  ns = uniqueName("write-go");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  client = await goWriteClient({ url: t.url, ca: t.ca ?? "", token: t.token }, 3);
}, 300_000);
afterAll(async () => {
  await client?.close();
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

const object = async (i: number) => t.call("GET", `/api/v1/namespaces/${ns}/configmaps/cm-${i}`);

describe("the Go write client", () => {
  it("creates, updates, applies and deletes the rows' ConfigMaps, one latency per request", async () => {
    const created = await client.run("create", ns, COUNT, 3);
    expect(created.latenciesMs).toHaveLength(COUNT);
    expect(created.latenciesMs.every((ms) => ms > 0)).toBe(true);
    expect(created.wallMs).toBeGreaterThan(0);
    expect(created.clientCpuMicros).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < COUNT; i++) {
      const { json } = await object(i);
      expect(json.metadata.labels).toEqual({ app: "bench", shard: String(i % 10) });
      expect(json.data).toEqual({ key: `value-${i}`, other: "x".repeat(100) });
    }

    await client.run("update", ns, COUNT, 1);
    expect((await object(COUNT - 1)).json.data).toEqual({ key: `updated-${COUNT - 1}` });

    await client.run("apply", ns, COUNT, 2);
    const applied = (await object(0)).json;
    // The update's field stays: it belongs to another field manager.
    expect(applied.data).toEqual({ key: "updated-0", applied: "applied-0" });
    expect(
      applied.metadata.managedFields.map((m: { manager: string; operation: string }) => m.operation),
    ).toContain("Apply");

    await client.run("delete", ns, COUNT, 3);
    for (let i = 0; i < COUNT; i++) expect((await object(i)).status).toBe(404);
  }, 60_000);

  it("refuses a run with an answer of 300 or more, naming the status", async () => {
    const failing = await goWriteClient({ url: t.url, ca: t.ca ?? "", token: t.token }, 1);
    try {
      // An update in a namespace that does not exist is answered 404.
      await expect(failing.run("update", uniqueName("missing"), 1, 1)).rejects.toThrow(
        /the Go write client failed: status 404: \{/,
      );
    } finally {
      await failing.close();
    }
  }, 60_000);

  it("refuses a setup whose CA holds no certificate", async () => {
    await expect(goWriteClient({ url: t.url, ca: "", token: t.token }, 1)).rejects.toThrow(
      "the Go write client failed: the setup's CA holds no certificate",
    );
  }, 60_000);
});
