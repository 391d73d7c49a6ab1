/**
 * A user's program, as the pack check runs it against the installed tarballs: the embedded server,
 * then create / list / watch a ConfigMap with the client, a server-side apply, an informer sync, and
 * the same through the `kubesdk` root and its sub-paths.
 * Written like user code: only the packages' public entry points, no workspace paths.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { extract } from "@kubesdk/apply";
import { Kube } from "@kubesdk/client";
import type { coreV1 } from "@kubesdk/models";
import { startServer } from "@kubesdk/server";
import { facadeConfigMapKeys } from "./facade.js";
import { syncedConfigMapKeys } from "./informer-sync.js";
import { check, typed } from "./typing.js";

const server = await startServer();
const dir = mkdtempSync(join(tmpdir(), "kubesdk-pack-e2e-"));
try {
  const kubeconfig = join(dir, "kubeconfig");
  writeFileSync(kubeconfig, server.kubeconfig);
  const kube = await Kube.fromKubeconfig({ kubeconfig: { path: kubeconfig } });
  const configMaps = kube.resource("v1", "ConfigMap");

  const created: coreV1.ConfigMap = typed(
    await configMaps.create({ metadata: { name: "first" }, data: { a: "1" } }),
  );
  typed(created.metadata?.name);
  const list = typed(await configMaps.list());
  check(
    list.items.some((cm) => cm.metadata?.name === "first"),
    "list shows the created ConfigMap",
  );

  const watch = configMaps.watch({ resourceVersion: list.metadata?.resourceVersion ?? "0" });
  await configMaps.create({ metadata: { name: "second" }, data: { b: "2" } });
  for await (const event of watch) {
    typed(event.object);
    if (event.type === "ADDED" && event.object.metadata?.name === "second") break;
  }

  const applied = typed(
    await configMaps.apply(
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "first" }, data: { c: "3" } },
      { fieldManager: "pack-check" },
    ),
  );
  check(applied.data?.c === "3", "apply set data.c");
  check(extract(applied, "pack-check").data?.c === "3", "extract returns what pack-check owns");

  const keys = await syncedConfigMapKeys(kube, "default");
  check(keys.includes("default/second"), "the informer cache holds the watched ConfigMap");
  await kube.close();
  const viaFacade = await facadeConfigMapKeys(server.kubeconfig, "default");
  check(viaFacade.includes("default/second"), "the facade's informers cache the ConfigMap");
  console.log("e2e: server, create/list/watch, apply, informer sync, the kubesdk facade: ok");
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
