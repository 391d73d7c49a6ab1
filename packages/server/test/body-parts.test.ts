/** A body as byte ranges: neighbours in one memory merge only when the bytes are the same. */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { bodyLength, PartRuns } from "../src/http/body-parts.js";
import { writeBytes } from "../src/http/respond.js";

const joined = (parts: readonly Buffer[]) => Buffer.concat(parts).toString();

describe("PartRuns", () => {
  it("merges items that are neighbours in one slab, separator included", () => {
    const slab = Buffer.from("aa,bbb,c,");
    const runs = new PartRuns(Buffer.from(","));
    runs.raw(Buffer.from("["));
    runs.item(slab, 0, 2);
    runs.item(slab, 3, 6);
    runs.item(slab, 7, 8);
    runs.raw(Buffer.from("]"));
    const parts = runs.done();
    expect(parts.map(String)).toEqual(["[", "aa,bbb,c", "]"]);
  });

  it("separates items out of order, from other slabs, or with another byte between", () => {
    const slab = Buffer.from("aa,bbb;c,");
    const other = Buffer.from("dd,");
    const runs = new PartRuns(Buffer.from(","));
    runs.item(slab, 3, 6);
    runs.item(slab, 0, 2);
    runs.item(slab, 3, 6);
    runs.item(slab, 7, 8);
    runs.item(other, 0, 2);
    runs.loose(Buffer.from("e"));
    runs.item(slab, 0, 2);
    const parts = runs.done();
    expect(joined(parts)).toBe("bbb,aa,bbb,c,dd,e,aa");
    expect(parts.map(String)).toEqual(["bbb", ",", "aa,bbb", ",", "c", ",", "dd", ",", "e", ",", "aa"]);
  });

  it("merges protobuf items that touch, with no separator", () => {
    const slab = Buffer.from([1, 2, 3, 4, 5, 6]);
    const runs = new PartRuns(Buffer.alloc(0));
    runs.item(slab, 0, 2);
    runs.item(slab, 2, 5);
    runs.item(slab, 1, 2);
    const parts = runs.done();
    expect(parts.map((p) => [...p])).toEqual([[1, 2, 3, 4, 5], [2]]);
    expect(bodyLength(parts)).toBe(6);
  });
});

/** Serves `parts` once over a real socket; the Content-Length and the bytes that arrived. */
async function sendParts(parts: Buffer[]): Promise<{ length: string | undefined; body: Buffer }> {
  const server = createServer((_req, res) =>
    writeBytes(res, 200, parts, { encoding: "json", pretty: false }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      request({ port, host: "127.0.0.1", path: "/" }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ length: res.headers["content-length"], body: Buffer.concat(chunks) }));
        res.on("error", reject);
      })
        .on("error", reject)
        .end();
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("writeBytes with parts", () => {
  const big = Buffer.alloc(2.5 * 2 ** 20, "x");
  const cases: Record<string, Buffer[]> = {
    "big and small parts": [
      Buffer.from("head"),
      big.subarray(0, 700_000),
      Buffer.from(","),
      big,
      Buffer.alloc(0),
      Buffer.from("t"),
    ],
    // Written a group at a time, several groups waiting for the socket to drain.
    "thousands of small parts": Array.from({ length: 6000 }, (_, i) => Buffer.alloc(1000 + (i % 7), i % 256)),
    "only empty parts": [Buffer.alloc(0), Buffer.alloc(0)],
  };
  for (const [name, parts] of Object.entries(cases))
    it(`sends the joined bytes with their length: ${name}`, async () => {
      const { length, body } = await sendParts(parts);
      expect(length).toBe(String(bodyLength(parts)));
      expect(body.equals(Buffer.concat(parts))).toBe(true);
    });
});
