/**
 * A protobuf list page is decoded while it arrives, and its continue token reaches `onContinue`
 * before the rest of the body when that is useful: a server here holds back the rest of a page
 * until the client has been told the token, so a client that waited for the whole body would hang.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { encodeObject } from "@kubesdk/models";
import { NoAuth } from "@kubesdk/transport";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, type KubeClient } from "../src/index.js";

const PROTOBUF = "application/vnd.kubernetes.protobuf";

function page(token: string | undefined, names: readonly string[]): Buffer {
  return Buffer.from(
    encodeObject({
      apiVersion: "v1",
      kind: "ConfigMapList",
      metadata: { resourceVersion: "9", ...(token !== undefined ? { continue: token } : {}) },
      items: names.map((name) => ({ metadata: { name, namespace: "ns" }, data: { big: "x".repeat(2000) } })),
    }),
  );
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Serves `body` in two writes: its first 600 bytes (the list's metadata among them), then the rest
 * once `release` is called. `stated`: with a Content-Length (else chunked).
 */
async function serve(body: Buffer, stated: boolean): Promise<{ kube: KubeClient; release: () => void }> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": PROTOBUF, ...(stated ? { "content-length": body.length } : {}) });
    res.write(body.subarray(0, 600));
    void released.then(() => res.end(body.subarray(600)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const kube = createClient(
    {
      server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      namespace: "ns",
      tls: { rejectUnauthorized: true },
      auth: new NoAuth(),
      disableCompression: false,
      source: { kind: "custom" as const },
    },
    { protobuf: true },
  );
  cleanups.push(
    () => new Promise((resolve) => server.close(resolve)),
    () => kube.close(),
  );
  return { kube, release };
}

/** Lists one page, noting what `onContinue` hears; `releaseOnToken`: the token lets the server go on. */
async function listNoting(stated: boolean, continueFrom: string | undefined, releaseOnToken: boolean) {
  const body = page("next", names);
  const { kube, release } = await serve(body, stated);
  const seen: unknown[] = [];
  const listed = kube.resource("v1", "ConfigMap").list({
    limit: 20,
    ...(continueFrom !== undefined ? { continue: continueFrom } : {}),
    onContinue: (token, bodyBytes) => {
      seen.push([token, bodyBytes]);
      if (releaseOnToken) release();
    },
  });
  if (!releaseOnToken) release();
  const list = await listed;
  return { bodyBytes: body.length, seen, names: list.items.map((cm) => cm.metadata?.name) };
}

const names = Array.from({ length: 20 }, (_, i) => `cm-${i}`);

describe("protobuf list pages read as they arrive", () => {
  it("a later page reports its token from its first bytes, before the rest has come", async () => {
    const listed = await listNoting(false, "this", true);
    expect(listed.seen).toEqual([["next", undefined]]);
    expect(listed.names).toEqual(names);
  });

  it("a page whose size is stated reports its token early with that size", async () => {
    const listed = await listNoting(true, undefined, true);
    expect(listed.seen).toEqual([["next", listed.bodyBytes]]);
    expect(listed.names).toEqual(names);
  });

  it("a first page of unstated size reports its token once it has all come, with its size", async () => {
    // Reported early, the size would be unknown (undefined); it is the whole body's.
    const listed = await listNoting(false, undefined, false);
    expect(listed.seen).toEqual([["next", listed.bodyBytes]]);
    expect(listed.names).toEqual(names);
  });
});
