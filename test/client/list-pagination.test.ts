import type { KubeClient, ListProgress } from "@kubesdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget } from "../support/target.js";
import { clientFor, createNamespace, deleteNamespace, recordingDispatcher } from "./support.js";

const COUNT = 7;
let t: TestTarget;
let admin: KubeClient;
let ns: string;

beforeAll(async () => {
  t = await startTarget();
  admin = await clientFor(t);
  // A namespace of its own, so it holds exactly these objects (no controller adds any on either server).
  ns = await createNamespace(admin, "client-pages");
  for (let i = 0; i < COUNT; i++) {
    await admin
      .resource("v1", "ConfigMap")
      .create({ metadata: { name: `cm-${i}` }, data: { i: String(i) } }, { namespace: ns });
  }
});
afterAll(async () => {
  await deleteNamespace(admin, ns);
  await admin.close();
  await t.close();
});

describe("listAll", () => {
  it("with page size 1 makes one request per item and yields every item in order", async () => {
    const recorder = recordingDispatcher();
    const kube = await clientFor(t, ns, { transport: { dispatcherFactory: recorder.factory } });
    try {
      const progress: ListProgress[] = [];
      const names: string[] = [];
      for await (const cm of kube
        .resource("v1", "ConfigMap")
        .listAll({ pageSize: 1, onPage: (p) => progress.push(p) })) {
        names.push(cm.metadata?.name as string);
      }
      expect(names).toEqual(Array.from({ length: COUNT }, (_, i) => `cm-${i}`));
      const lists = recorder.requests.filter((r) => r.startsWith(`GET /api/v1/namespaces/${ns}/configmaps?`));
      expect(lists).toHaveLength(COUNT);
      expect(lists.every((r) => r.includes("limit=1"))).toBe(true);
      expect(lists.filter((r) => r.includes("continue="))).toHaveLength(COUNT - 1);

      expect(progress.map((p) => p.pages)).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
      expect(progress.at(-1)).toMatchObject({ items: COUNT, done: true });
      // Without selectors the server estimates what is left, and every page shares one snapshot.
      expect(progress[0]?.remainingItemCount).toBe(COUNT - 1);
      expect(new Set(progress.map((p) => p.resourceVersion)).size).toBe(1);
    } finally {
      await kube.close();
    }
  });

  it("serves every page from the first page's snapshot even when objects change in between", async () => {
    const kube = await clientFor(t, ns);
    try {
      const configMaps = kube.resource("v1", "ConfigMap");
      const seen: string[] = [];
      for await (const cm of configMaps.listAll({ pageSize: 3 })) {
        seen.push(cm.metadata?.name as string);
        if (seen.length === 1) await configMaps.create({ metadata: { name: "cm-late" } });
      }
      expect(seen).toEqual(Array.from({ length: COUNT }, (_, i) => `cm-${i}`));
      await configMaps.delete("cm-late");
    } finally {
      await kube.close();
    }
  });

  it("pages metadata-only lists the same way", async () => {
    const kube = await clientFor(t, ns);
    try {
      const items = await kube.resource("v1", "ConfigMap").metadataOnly().listAll({ pageSize: 2 }).collect();
      expect(items.map((i) => i.metadata?.name)).toEqual(Array.from({ length: COUNT }, (_, i) => `cm-${i}`));
      expect(items.every((i) => i.kind === "PartialObjectMetadata" && !("data" in i))).toBe(true);
    } finally {
      await kube.close();
    }
  });
});
