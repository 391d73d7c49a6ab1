/** Big lists encoded in slices give exactly the bytes of a one-go encoding. */
import { describe, expect, it, vi } from "vitest";
import { encodeBodyYielding as encodeParts } from "../src/http/list-encode.js";
import type { MediaChoice } from "../src/http/negotiate.js";
import { encodeBody } from "../src/http/respond.js";

const configMaps = (n: number) => ({
  kind: "ConfigMapList",
  apiVersion: "v1",
  metadata: { resourceVersion: "42", continue: "abc", remainingItemCount: 7 },
  items: Array.from({ length: n }, (_, i) => ({
    metadata: {
      name: `cm-${i}`,
      namespace: "default",
      uid: `u-${i}`,
      resourceVersion: String(i + 1),
      labels: { i: String(i) },
    },
    data: { k: "v".repeat(i % 50), é: "ü" },
  })),
});

const pods = {
  kind: "PodList",
  apiVersion: "v1",
  metadata: { resourceVersion: "9" },
  items: Array.from({ length: 400 }, (_, i) => ({
    metadata: { name: `p-${i}`, namespace: "default" },
    spec: { containers: [{ name: "c", image: "nginx", resources: { limits: { cpu: "100m" } } }] },
    status: { phase: "Pending" },
  })),
};

const metadataOnly = {
  kind: "PartialObjectMetadataList",
  apiVersion: "meta.k8s.io/v1",
  metadata: { resourceVersion: "9" },
  items: Array.from({ length: 300 }, (_, i) => ({
    kind: "PartialObjectMetadata",
    apiVersion: "meta.k8s.io/v1",
    metadata: { name: `m-${i}`, namespace: "default" },
  })),
};

/** The body's parts joined: the bytes on the wire. */
const encodeBodyYielding = async (body: unknown, choice: MediaChoice) =>
  Buffer.concat(await encodeParts(body, choice));

const choices: Record<string, MediaChoice> = {
  json: { encoding: "json", pretty: false },
  pretty: { encoding: "json", pretty: true },
  protobuf: { encoding: "protobuf", pretty: false },
  yaml: { encoding: "yaml", pretty: false },
};

describe("encodeBodyYielding", () => {
  for (const [name, choice] of Object.entries(choices))
    it(`matches encodeBody for ${name}`, async () => {
      for (const body of [configMaps(3), configMaps(2000), pods, metadataOnly]) {
        const sliced = await encodeBodyYielding(body, choice);
        expect(sliced.equals(encodeBody(body, choice))).toBe(true);
      }
    });

  it("matches encodeBody for a protobuf PartialObjectMetadataList", async () => {
    const choice = choices.protobuf as MediaChoice;
    expect((await encodeBodyYielding(metadataOnly, choice)).equals(encodeBody(metadataOnly, choice))).toBe(
      true,
    );
  });

  it("joins the bytes of many slices exactly like a one-go encoding (JSON, compact and pretty)", async () => {
    const big = configMaps(60_000);
    for (const choice of [choices.json, choices.pretty] as MediaChoice[]) {
      // Restored in finally: test files share their worker's globals (isolate: false).
      const yields = vi.spyOn(globalThis, "setImmediate");
      let sliced: Buffer;
      try {
        sliced = await encodeBodyYielding(big, choice);
        expect(yields.mock.calls.length).toBeGreaterThan(1);
      } finally {
        yields.mockRestore();
      }
      expect(sliced.equals(encodeBody(big, choice))).toBe(true);
    }
  });
});

describe("encodeBodyYielding's item caches", () => {
  const list = (items: readonly object[]) => ({
    kind: "ConfigMapList",
    apiVersion: "v1",
    metadata: {},
    items,
  });
  const compact = choices.json as MediaChoice;
  const protobuf = choices.protobuf as MediaChoice;

  it("gives a one-go encoding's bytes for lists mixing shown and new items in any order", async () => {
    const shown = configMaps(1500).items;
    const fresh = configMaps(900).items.map((item) => ({ ...item, data: { new: "ñ" } }));
    const mixes = [
      shown,
      [...shown].reverse(),
      shown.flatMap((item, i) => (i % 3 === 0 && fresh[i / 3] ? [item, fresh[i / 3] as object] : [item])),
      [...fresh.slice(0, 400), ...shown.slice(700), ...fresh.slice(400)],
      shown.filter((_, i) => i % 2 === 1),
    ];
    for (const choice of [compact, protobuf])
      for (const items of mixes)
        expect((await encodeBodyYielding(list(items), choice)).equals(encodeBody(list(items), choice))).toBe(
          true,
        );
  });

  it("sends a list shown before as ranges of its items' caches, not a part per item", async () => {
    const items = configMaps(3000).items;
    for (const choice of [compact, protobuf]) {
      await encodeParts(list(items), choice);
      const parts = await encodeParts(list(items), choice);
      expect(parts.length).toBeLessThan(items.length / 10);
      expect(Buffer.concat(parts).equals(encodeBody(list(items), choice))).toBe(true);
    }
  });

  it("a frozen items array (a whole list of one store snapshot) gives the same bytes every time", async () => {
    const items = Object.freeze(configMaps(600).items);
    for (const choice of [compact, protobuf]) {
      const want = encodeBody(list(items), choice);
      expect(Buffer.concat(await encodeParts(list(items), choice)).equals(want)).toBe(true);
      expect(Buffer.concat(await encodeParts(list(items), choice)).equals(want)).toBe(true);
    }
  });

  it("a frozen items array under another envelope gets that envelope's bytes", async () => {
    const items = Object.freeze(configMaps(400).items);
    const envelopes = [{}, { resourceVersion: "7" }, { resourceVersion: "8" }, { resourceVersion: "7" }];
    for (const choice of [compact, protobuf])
      for (const metadata of [...envelopes, ...envelopes]) {
        const body = { ...list(items), metadata };
        expect((await encodeBodyYielding(body, choice)).equals(encodeBody(body, choice))).toBe(true);
      }
    const asMetadata = { ...metadataOnly, items };
    for (const body of [asMetadata, list(items), asMetadata])
      for (const choice of [compact, protobuf])
        expect((await encodeBodyYielding(body, choice)).equals(encodeBody(body, choice))).toBe(true);
  });

  it("keeps a frozen items array's parts per list kind", async () => {
    const items = Object.freeze(metadataOnly.items.map((item) => ({ ...item })));
    const asMetadata = { ...metadataOnly, items };
    for (const body of [asMetadata, list(items), asMetadata])
      expect((await encodeBodyYielding(body, protobuf)).equals(encodeBody(body, protobuf))).toBe(true);
  });

  it("keeps one cache per list kind for protobuf items", async () => {
    // The same item objects, shown first as PartialObjectMetadata, then as ConfigMaps.
    const asConfigMaps = list(metadataOnly.items);
    expect(
      (await encodeBodyYielding(metadataOnly, protobuf)).equals(encodeBody(metadataOnly, protobuf)),
    ).toBe(true);
    expect(
      (await encodeBodyYielding(asConfigMaps, protobuf)).equals(encodeBody(asConfigMaps, protobuf)),
    ).toBe(true);
  });
});
