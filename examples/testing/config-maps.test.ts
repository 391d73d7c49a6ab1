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
  const configMaps = kube.resource("v1", "ConfigMap");
  await configMaps.create({ metadata: { name: "flags", labels: { app: "shop" } }, data: { beta: "on" } });
  server.faults.failNext(2, { status: 503 }, { resource: "configmaps", verb: "list" });
  // A selector, because the namespace also holds kube-root-ca.crt, published by the server's controllers.
  const list = await configMaps.list({ labelSelector: "app=shop" });
  expect(list.items.map((item) => item.data)).toEqual([{ beta: "on" }]);
});
