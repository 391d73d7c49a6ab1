import type { Kube, ListProgress } from "@kubesdk/client";
import { isExpired } from "@kubesdk/transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget } from "../support/target.js";
import { clientFor, createNamespace, deleteNamespace, recordingDispatcher } from "./support.js";

const COUNT = 7;
let t: TestTarget;
let admin: Kube;
let ns: string;

beforeAll(async () => {
  // Controllers off, like kube-apiserver in test:real: no kube-root-ca.crt joins these ConfigMaps.
  t = await startTarget({ controllers: false });
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

  it("sends resourceVersion and resourceVersionMatch with the first page only (continue pages carry the snapshot)", async () => {
    const recorder = recordingDispatcher();
    const kube = await clientFor(t, ns, { transport: { dispatcherFactory: recorder.factory } });
    try {
      const configMaps = kube.resource("v1", "ConfigMap");
      const resourceVersion = (await configMaps.list()).metadata?.resourceVersion as string;
      const before = recorder.requests.length;
      const names = (
        await configMaps.listAll({ pageSize: 3, resourceVersion, resourceVersionMatch: "Exact" }).collect()
      ).map((cm) => cm.metadata?.name);
      expect(names).toEqual(Array.from({ length: COUNT }, (_, i) => `cm-${i}`));
      const [first, ...rest] = recorder.requests.slice(before);
      expect(first).toContain(`resourceVersion=${resourceVersion}&resourceVersionMatch=Exact`);
      expect(rest).toHaveLength(Math.ceil(COUNT / 3) - 1);
      expect(rest.every((r) => r.includes("continue=") && !r.includes("resourceVersion"))).toBe(true);
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

/**
 * An expired continue token. PodTemplates, because compaction only expires what a server reads from
 * its store: a real apiserver serves ConfigMap pages from its watch cache, while test:real keeps
 * PodTemplates out of it (so `t.compact()`, an etcd compaction there, expires their tokens).
 */
describe("listAll when the continue token expires", () => {
  const TEMPLATES = 5;
  let templatesNs: string;
  const template = (name: string) => ({
    metadata: { name },
    template: { spec: { containers: [{ name: "c", image: "busybox:1.36" }] } },
  });

  beforeAll(async () => {
    templatesNs = await createNamespace(admin, "client-pages-expiry");
    for (let i = 0; i < TEMPLATES; i++) {
      await admin.resource("v1", "PodTemplate").create(template(`pt-${i}`), { namespace: templatesNs });
    }
  });
  afterAll(async () => {
    await deleteNamespace(admin, templatesNs);
  });

  /** Lists page by page; after the first item a new template is written and history compacted. */
  async function listWhileCompacting(
    options: { resourceVersion?: string; resourceVersionMatch?: "Exact" },
    late: string,
  ): Promise<{ names: string[]; progress: ListProgress[]; lists: string[]; error: unknown }> {
    const recorder = recordingDispatcher();
    const kube = await clientFor(t, templatesNs, { transport: { dispatcherFactory: recorder.factory } });
    const names: string[] = [];
    const progress: ListProgress[] = [];
    let error: unknown;
    try {
      const templates = kube.resource("v1", "PodTemplate");
      for await (const pt of templates.listAll({
        ...options,
        pageSize: 2,
        onPage: (p) => progress.push(p),
      })) {
        names.push(pt.metadata?.name as string);
        if (names.length === 1) {
          await templates.create(template(late));
          await t.compact();
        }
      }
    } catch (e) {
      error = e;
    } finally {
      await kube.close();
    }
    const lists = recorder.requests.filter((r) =>
      r.startsWith(`GET /api/v1/namespaces/${templatesNs}/podtemplates`),
    );
    return { names, progress, lists, error };
  }

  it("falls back to one full list without limit and reports it through the progress", async () => {
    const { names, progress, lists, error } = await listWhileCompacting({}, "pt-late");
    expect(error).toBeUndefined();
    const all = [...Array.from({ length: TEMPLATES }, (_, i) => `pt-${i}`), "pt-late"];
    // The first page's two items, then the full list from the latest state.
    expect(names).toEqual(["pt-0", "pt-1", ...all]);
    expect(lists).toHaveLength(3);
    expect(lists[0]).toContain("limit=2");
    expect(lists[1]).toContain("continue=");
    expect(lists[2]).not.toMatch(/[?&](limit|continue|resourceVersion)=/);
    expect(progress.map((p) => [p.pages, p.items, p.done, p.fullListFallback])).toEqual([
      [1, 2, false, false],
      [2, all.length, true, true],
    ]);
    expect(progress[1]?.resourceVersion).not.toBe(progress[0]?.resourceVersion);
  });

  it("keeps the original resourceVersion for the fallback and throws when that is gone too, without looping", async () => {
    const templates = admin.resource("v1", "PodTemplate");
    const resourceVersion = (await templates.list({ namespace: templatesNs })).metadata
      ?.resourceVersion as string;
    const { names, progress, lists, error } = await listWhileCompacting(
      { resourceVersion, resourceVersionMatch: "Exact" },
      "pt-later",
    );
    expect(isExpired(error)).toBe(true);
    expect(names).toEqual(["pt-0", "pt-1"]);
    expect(lists).toHaveLength(3);
    expect(lists[2]).toContain(`resourceVersion=${resourceVersion}&resourceVersionMatch=Exact`);
    expect(lists[2]).not.toMatch(/[?&](limit|continue)=/);
    expect(progress).toHaveLength(1);
  });
});
