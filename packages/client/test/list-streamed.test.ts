/**
 * Which protobuf lists are decoded as they arrive: a list without `limit` goes through the codec's
 * reader chunk by chunk; a page whose caller prefetches (`limit` and `onContinue`) is collected
 * whole, its token reported before it is decoded, and then decoded from the chunks that arrived.
 * Both decode to the same list, whose items start with their apiVersion and kind.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { encodeObject } from "@kubesdk/models";
import { NoAuth } from "@kubesdk/transport";
import { afterEach, describe, expect, it } from "vitest";
import { Kube } from "../src/index.js";
import { protobufCodec as modelsProtobufCodec } from "../src/protobuf.js";

const PROTOBUF = "application/vnd.kubernetes.protobuf";
const names = Array.from({ length: 30 }, (_, i) => `cm-${i}`);
const body = Buffer.from(
  encodeObject({
    apiVersion: "v1",
    kind: "ConfigMapList",
    metadata: { resourceVersion: "9", continue: "next" },
    items: names.map((name) => ({ metadata: { name, namespace: "ns" }, data: { big: "x".repeat(3000) } })),
  }),
);

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Writes the list in pieces of `piece` bytes (4 KiB by default). */
function writeListIn(piece: number): http.RequestListener {
  return (_req, res) => {
    res.writeHead(200, { "content-type": PROTOBUF });
    const next = (at: number): void => {
      if (at >= body.length) return void res.end();
      res.write(body.subarray(at, at + piece), () => setImmediate(() => next(at + piece)));
    };
    next(0);
  };
}
const writeList = writeListIn(4096);

/** A server (writeList unless told otherwise), and a client whose codec notes what its reader gets. */
async function setup(handler: http.RequestListener = writeList): Promise<{ kube: Kube; pushed: number[] }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const pushed: number[] = [];
  const reader = modelsProtobufCodec.reader as NonNullable<typeof modelsProtobufCodec.reader>;
  const kube = Kube.fromConnection(
    {
      server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      namespace: "ns",
      tls: { rejectUnauthorized: true },
      auth: new NoAuth(),
      disableCompression: false,
      source: { kind: "custom" as const },
    },
    {
      protobuf: true,
      protobufCodec: {
        ...modelsProtobufCodec,
        reader: (itemType) => {
          const inner = reader(itemType);
          return {
            push: (chunk) => {
              pushed.push(chunk.length);
              inner.push(chunk);
            },
            end: () => inner.end(),
          };
        },
      },
    },
  );
  cleanups.push(
    () => new Promise((resolve) => server.close(resolve)),
    () => kube.close(),
  );
  return { kube, pushed };
}

describe("protobuf lists decoded as they arrive", () => {
  it("a list without limit goes through the reader a chunk at a time", async () => {
    const { kube, pushed } = await setup();
    const tokens: unknown[] = [];
    const list = await kube
      .resource("v1", "ConfigMap")
      .list({ onContinue: (token, bytes) => void tokens.push([token, bytes]) });
    expect(list.items.map((cm) => cm.metadata?.name)).toEqual(names);
    expectTyped(list.items);
    expect(pushed.length).toBeGreaterThan(1);
    expect(pushed.reduce((a, b) => a + b, 0)).toBe(body.length);
    expect(tokens).toEqual([["next", body.length]]);
  });

  it("a retry answered in JSON after a protobuf body was cut off is decoded as JSON", async () => {
    let tries = 0;
    const { kube } = await setup((_req, res) => {
      if (tries++ > 0) {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(
          JSON.stringify({ metadata: { resourceVersion: "9" }, items: [{ metadata: { name: "j" } }] }),
        );
      }
      res.writeHead(200, { "content-type": PROTOBUF, "content-length": String(body.length) });
      res.write(body.subarray(0, 5000), () => res.socket?.destroy());
    });
    const list = await kube.resource("v1", "ConfigMap").list();
    expect(tries).toBe(2);
    expect(list.items.map((cm) => cm.metadata?.name)).toEqual(["j"]);
    // JSON items get their apiVersion and kind too, after the fields they came with.
    expect(list.items[0]).toEqual({ metadata: { name: "j" }, apiVersion: "v1", kind: "ConfigMap" });
  });

  it("a page whose caller prefetches is collected whole, its token reported first, then decoded from its chunks", async () => {
    // 32 KiB pieces: a socket read brings at least that much (up to 64 KiB), so the chunks are not joined.
    const { list, tokens, pushed, pushedBeforeToken } = await listPrefetched(32 * 1024);
    expect(list.items.map((cm) => cm.metadata?.name)).toEqual(names);
    expectTyped(list.items);
    expect(tokens).toEqual([["next", body.length]]);
    // Nothing was decoded before the token was out; then the chunks as they came, never joined.
    expect(pushedBeforeToken).toBe(0);
    expect(pushed.reduce((a, b) => a + b, 0)).toBe(body.length);
    expect(Math.max(...pushed)).toBeLessThan(body.length);
  });

  it("a prefetched page that arrives in small pieces decodes to the same list, its token reported first", async () => {
    // Chunks averaging under 16 KiB are joined first; either way the list and the token are the same.
    const { list, tokens, pushed, pushedBeforeToken } = await listPrefetched(1024);
    expect(list.items.map((cm) => cm.metadata?.name)).toEqual(names);
    expectTyped(list.items);
    expect(tokens).toEqual([["next", body.length]]);
    expect(pushedBeforeToken).toBe(0);
    expect(pushed).toEqual([body.length]);
  });
});

/** Each item starts with apiVersion and kind, then the fields the server sent, as a ConfigMap read alone. */
function expectTyped(items: readonly object[]): void {
  for (const item of items) expect(Object.keys(item)).toEqual(["apiVersion", "kind", "metadata", "data"]);
  expect(items[0]).toMatchObject({ apiVersion: "v1", kind: "ConfigMap" });
}

/** A page of 30 (`limit` and `onContinue`) from a server writing `piece` bytes at a time. */
async function listPrefetched(piece: number) {
  const { kube, pushed } = await setup(writeListIn(piece));
  const tokens: unknown[] = [];
  let pushedBeforeToken = -1;
  const list = await kube.resource("v1", "ConfigMap").list({
    limit: 30,
    onContinue: (token, bytes) => {
      pushedBeforeToken = pushed.length;
      tokens.push([token, bytes]);
    },
  });
  return { list, tokens, pushed, pushedBeforeToken };
}
