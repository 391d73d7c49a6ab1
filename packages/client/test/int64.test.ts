/**
 * The `int64` option: protobuf responses and watch frames carrying an int64 beyond ±(2^53 − 1)
 * fail typed by default and come out exactly as a bigint or a string when asked, over real HTTP.
 */
import type http from "node:http";
import { encodeObject, encodeWatchEvent } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import { useHarness } from "../../transport/test/helpers/harness.js";
import { rejection } from "../../transport/test/helpers/rejection.js";
import { ClientError, Kube, type KubeOptions } from "../src/index.js";
import { protobufCodec } from "../src/protobuf.js";

const harness = useHarness();
const PROTOBUF = "application/vnd.kubernetes.protobuf";
const big = 2n ** 60n + 1n;
const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "big", generation: big } };

/** A client whose server answers a GET of the ConfigMap and a watch of ConfigMaps in protobuf. */
async function clientWith(options: KubeOptions): Promise<Kube> {
  const server = await harness.serve((seen, _req, res: http.ServerResponse) => {
    if (seen.url.includes("watch=true")) {
      const frame = encodeWatchEvent({ type: "ADDED", object: configMap });
      const prefix = Buffer.alloc(4);
      prefix.writeUInt32BE(frame.length);
      res.writeHead(200, { "content-type": `${PROTOBUF};stream=watch` });
      res.end(Buffer.concat([prefix, frame]));
      return;
    }
    res.writeHead(200, { "content-type": PROTOBUF });
    res.end(encodeObject(configMap));
  });
  const transport = harness.transport(server.url, { retries: false });
  return new Kube(transport, { protobuf: true, protobufCodec, ...options });
}

async function firstEvent(kube: Kube): Promise<unknown> {
  for await (const event of kube.resource("v1", "ConfigMap").watch()) return event.object;
  throw new Error("no event");
}

describe("int64 beyond ±(2^53 − 1) in protobuf", () => {
  it('is a typed error by default ("number")', async () => {
    const kube = await clientWith({});
    const err = await rejection(kube.resource("v1", "ConfigMap").get("big"));
    expect((err as Error).message).toMatch(/2\^53/);
    expect((err as Error).cause).toMatchObject({ code: "PROTOBUF_INT64" });
    await expect(firstEvent(kube)).rejects.toThrow(/2\^53/);
  });

  it.each([
    ["bigint", big],
    ["string", big.toString()],
  ] as const)("comes out exactly with int64: %s, in responses and watch events", async (mode, expected) => {
    const kube = await clientWith({ int64: mode });
    const got = await kube.resource("v1", "ConfigMap").get("big");
    expect(got.metadata?.generation).toBe(expected);
    expect((await firstEvent(kube)) as typeof got).toMatchObject({ metadata: { generation: expected } });
  });

  it("rejects an unknown mode", () => {
    const transport = harness.transport("http://127.0.0.1:1");
    expect(() => new Kube(transport, { int64: "float" as never })).toThrow(ClientError);
  });
});
