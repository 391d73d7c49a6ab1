import { type RunningServer, startServer } from "@kubesdk/server";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

let s: RunningServer;
const lines: string[] = [];
beforeAll(async () => {
  s = await startServer({ log: (l) => lines.push(l) });
});
afterAll(() => s.stop());

describe("request log", () => {
  it("logs a watch the client closed", async () => {
    const dispatcher = new Agent({ connect: { ca: s.ca } });
    const abort = new AbortController();
    const res = await request(`${s.url}/api/v1/namespaces/default/configmaps?watch=true`, {
      headers: { authorization: `Bearer ${s.token}` },
      dispatcher,
      signal: abort.signal,
    });
    expect(res.statusCode).toBe(200);
    abort.abort();
    await vi.waitFor(() =>
      expect(lines.some((l) => l.includes("watch=true") && l.includes("(closed by client)"))).toBe(true),
    );
    await dispatcher.close();
  });
});
