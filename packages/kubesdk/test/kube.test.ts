/** The facade's entry class and its informers against the in-process reference server. */
import { type RunningServer, startServer } from "@kubesdk/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ConfigMap, InformerFactory, isNotFound, Kube } from "../src/index.js";

let server: RunningServer;
let kube: Kube;
let informers: InformerFactory;

beforeAll(async () => {
  server = await startServer({ port: 0 });
  kube = await Kube.fromKubeconfigText(server);
  informers = new InformerFactory(kube);
});

afterAll(async () => {
  await informers?.stop();
  await kube?.close();
  await server?.stop();
});

describe("Kube", () => {
  test("typed resource clients by apiVersion and kind", async () => {
    const configMaps = kube.resource("v1", "ConfigMap");
    const created: ConfigMap = await configMaps.create({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "facade-get" },
      data: { a: "1" },
    });
    expect(created.metadata?.namespace).toBe(kube.namespace);
    const got = await configMaps.get("facade-get");
    expect(got.data).toEqual({ a: "1" });
    await configMaps.delete("facade-get");
    const missing = await configMaps.get("facade-get").catch((err: unknown) => err);
    expect(isNotFound(missing)).toBe(true);
  });

  test("InformerFactory over a Kube: one shared informer per resource and scope", () => {
    const a = informers.informer("v1", "ConfigMap");
    const b = informers.informer("v1", "ConfigMap", { namespace: kube.namespace });
    const all = informers.informer("v1", "ConfigMap", { allNamespaces: true });
    expect(b).toBe(a);
    expect(all).not.toBe(a);
    expect(informers.informer("v1", "Namespace")).toBe(informers.informer("v1", "Namespace"));
  });

  test("a started informer caches the client's namespace", async () => {
    const configMaps = kube.resource("v1", "ConfigMap");
    await configMaps.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "facade-cached" } });
    const informer = informers.informer("v1", "ConfigMap");
    informers.start();
    await informers.waitForSync();
    const cached = informer.store.list().map((c) => c.metadata?.name);
    expect(cached).toContain("facade-cached");
    expect(informer.store.list().every((c) => c.metadata?.namespace === kube.namespace)).toBe(true);
  });
});
