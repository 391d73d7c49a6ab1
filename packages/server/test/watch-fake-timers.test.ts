/**
 * A test that fakes the global timers around an in-process server still gets its watch events: the
 * watch streams' flush (watch/flush-queue.ts) does not use the global setImmediate.
 */
import { request } from "node:https";
import { afterEach, expect, it, vi } from "vitest";
import { type RunningServer, startServer } from "../src/server.js";

afterEach(() => {
  vi.useRealTimers();
});

/** One request; resolves with the status and the first line of the body, then drops the connection. */
function firstLine(server: RunningServer, method: string, path: string, body?: unknown) {
  return new Promise<{ status: number; line: string }>((resolve, reject) => {
    const req = request(
      `${server.url}${path}`,
      {
        method,
        ca: server.ca,
        headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
          const end = text.indexOf("\n");
          if (end >= 0) {
            resolve({ status: res.statusCode ?? 0, line: text.slice(0, end) });
            req.destroy();
          }
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, line: text }));
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

it("delivers watch events while setImmediate is faked", async () => {
  const server = await startServer({ controllers: false, cluster: false });
  try {
    const path = "/api/v1/namespaces/default/configmaps";
    const created = await firstLine(server, "POST", path, { metadata: { name: "faked" } });
    expect(created.status).toBe(201);
    vi.useFakeTimers({ toFake: ["setImmediate"] });
    const watch = await firstLine(server, "GET", `${path}?watch=1&fieldSelector=metadata.name%3Dfaked`);
    const event = JSON.parse(watch.line) as { type: string; object: { metadata: { name: string } } };
    expect([watch.status, event.type, event.object.metadata.name]).toEqual([200, "ADDED", "faked"]);
  } finally {
    vi.useRealTimers();
    await server.stop();
  }
});
