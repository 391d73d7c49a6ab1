/**
 * The kubelet API endpoint on its own (what a real kube-apiserver is pointed at in `test:real`):
 * kubelet paths and query names, the pod lookup, and the WebSocket pass-through.
 */
import { startKubeletEndpoint } from "@kubesdk/server";
import { Agent, request, WebSocket } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

describe("kubelet endpoint", () => {
  const lookups: string[] = [];
  let endpoint: Awaited<ReturnType<typeof startKubeletEndpoint>>;
  let dispatcher: Agent;
  beforeAll(async () => {
    endpoint = await startKubeletEndpoint({
      lookupPod: async (namespace, name) => {
        lookups.push(`${namespace}/${name}`);
        if (name !== "web") return undefined;
        return { metadata: { namespace, name }, spec: { containers: [{ name: "main" }] } };
      },
    });
    dispatcher = new Agent({ connect: { ca: endpoint.caPem } });
  });
  afterAll(async () => {
    await dispatcher.close();
    await endpoint.close();
  });

  const get = async (path: string) => {
    const res = await request(endpoint.url + path, { dispatcher });
    return { status: res.statusCode, text: await res.body.text() };
  };

  it("serves containerLogs with the kubelet's query parameters", async () => {
    endpoint.runtime.log("ns", "web", "main", "one", "two", "three");
    expect(await get("/containerLogs/ns/web/main")).toEqual({ status: 200, text: "one\ntwo\nthree\n" });
    expect((await get("/containerLogs/ns/web/main?tailLines=1")).text).toBe("three\n");
    expect((await get("/containerLogs/ns/web/main?limitBytes=6")).text).toBe("one\ntw");
    expect((await get("/containerLogs/ns/web/main?tailLines=1&timestamps=true")).text).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z three\n$/,
    );
    expect(lookups).toContain("ns/web");
  });

  it("answers unknown pods and paths with 404", async () => {
    const missing = await get("/containerLogs/ns/ghost/main");
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toMatchObject({ kind: "Status", reason: "NotFound" });
    expect((await get("/pods")).status).toBe(404);
  });

  it("runs exec over a WebSocket with the kubelet's flag names (output, error)", async () => {
    const ws = new WebSocket(
      `wss://127.0.0.1:${endpoint.port}/exec/ns/web/main?command=echo&command=hi&output=1&error=1`,
      { protocols: ["v4.channel.k8s.io"], dispatcher },
    );
    ws.binaryType = "arraybuffer";
    const frames: Buffer[] = [];
    ws.addEventListener("message", (e) => frames.push(Buffer.from(e.data as ArrayBuffer)));
    await new Promise((resolve) => ws.addEventListener("close", resolve));
    const channel = (n: number) =>
      Buffer.concat(frames.filter((f) => f[0] === n).map((f) => f.subarray(1))).toString();
    expect(channel(1)).toBe("hi\n");
    expect(JSON.parse(channel(3))).toMatchObject({ status: "Success" });
  });
});
