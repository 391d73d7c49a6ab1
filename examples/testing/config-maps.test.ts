// A vitest suite against the embedded API server: each file starts its own server in milliseconds.
import { type RunningServer, startServer } from "@kubesdk/server";
import { isNotFound, Kube } from "kubesdk";
import { afterAll, beforeAll, expect, it } from "vitest";

let server: RunningServer;
let kube: Kube;

beforeAll(async () => {
  server = await startServer({ seed: [{ apiVersion: "v1", kind: "Namespace", metadata: { name: "shop" } }] });
  kube = await Kube.fromKubeconfigText(server, { overrides: { namespace: "shop" } });
});

afterAll(async () => {
  await kube.close();
  await server.stop();
});

it("creates, reads and deletes a config map", async () => {
  const configMaps = kube.resource("v1", "ConfigMap");
  await configMaps.create({ metadata: { name: "settings" }, data: { mode: "fast" } });
  expect((await configMaps.get("settings")).data).toEqual({ mode: "fast" });
  await configMaps.delete("settings");
  await expect(configMaps.get("settings")).rejects.toSatisfy(isNotFound);
});

it("keeps reading through injected 503s", async () => {
  server.faults.failNext(2, { status: 503 }, { resource: "configmaps", verb: "list" });
  const list = await kube.resource("v1", "ConfigMap").list();
  expect(list.items).toEqual([]);
});
