/**
 * Metadata-only informers (scenario 38) and selectors (scenario 39). Both run against the reference
 * server and a real kube-apiserver.
 */
import type { CustomResource } from "@kubesdk/client";
import type { Informer } from "@kubesdk/informer";
import type { KubernetesObject } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import { uniqueName } from "../support/target.js";
import {
  configMapsPath,
  createConfigMap,
  createNamespace,
  FAST_BACKOFF,
  nameOf,
  patchConfigMap,
  Recorder,
  serverState,
  storeState,
  untilState,
} from "./support/harness.js";
import { useInformerSuite } from "./support/suite.js";

const s = useInformerSuite();

const synced = <T extends KubernetesObject>(informer: Informer<T>) => s.synced(informer);

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/** Creates a namespaced CRD and waits — with an informer on the CRDs — until it is Established. */
async function createCrd(group: string): Promise<CustomResource> {
  const name = `gadgets.${group}`;
  const res = await s.t.call("POST", CRDS, {
    body: {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name },
      spec: {
        group,
        scope: "Namespaced",
        names: { plural: "gadgets", singular: "gadget", kind: "Gadget" },
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: "object",
                properties: { spec: { type: "object", properties: { size: { type: "integer" } } } },
              },
            },
          },
        ],
      },
    },
  });
  expect(res.status).toBe(201);
  const crds = await synced(
    s.informer({
      resource: s.kube().resource("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
      fieldSelector: { "metadata.name": name },
    }),
  );
  const established = () =>
    (
      crds.store.get(name) as { status?: { conditions?: { type: string; status: string }[] } } | undefined
    )?.status?.conditions?.some((c) => c.type === "Established" && c.status === "True") === true;
  await untilState(crds, established, `${name} established`);
  await crds.stop();
  return { group, version: "v1", plural: "gadgets", kind: "Gadget", namespaced: true };
}

describe("metadata-only informers", () => {
  it("S38: metadata-only informers cache PartialObjectMetadata for built-in and custom resources", async () => {
    const ns = uniqueName("s38");
    await createNamespace(s.t, ns);
    await createConfigMap(s.t, ns, "listed", { secret: "payload" }, { app: "x" });
    const gadgets = await createCrd(`${uniqueName("s38")}.kubesdk.example`);
    const gadgetsPath = `/apis/${gadgets.group}/v1/namespaces/${ns}/gadgets`;
    const createGadget = async (name: string) => {
      const r = await s.t.call("POST", gadgetsPath, {
        body: {
          apiVersion: `${gadgets.group}/v1`,
          kind: "Gadget",
          metadata: { name, labels: { app: "g" } },
          spec: { size: 3 },
        },
      });
      expect(r.status).toBe(201);
    };
    await createGadget("g-listed");

    const builtin = await synced(
      s.informer({
        resource: s.kube().resource("v1", "ConfigMap").metadataOnly(),
        namespace: ns,
        backoff: FAST_BACKOFF,
      }),
    );
    const custom = await synced(
      s.informer({
        // Found through discovery, as a program that knows the CRD only by name would.
        resource: (
          await s.kube().discover({ apiVersion: `${gadgets.group}/v1`, kind: "Gadget" })
        ).metadataOnly(),
        namespace: ns,
        backoff: FAST_BACKOFF,
      }),
    );
    const errors: Error[] = [];
    builtin.on("error", (e) => errors.push(e));
    custom.on("error", (e) => errors.push(e));
    await createConfigMap(s.t, ns, "watched", { secret: "payload" }, { app: "y" });
    await createGadget("g-watched");
    await untilState(builtin, () => builtin.store.size === 2, "two configmaps");
    await untilState(custom, () => custom.store.size === 2, "two gadgets");

    for (const [informer, names] of [
      [builtin, ["listed", "watched"]],
      [custom, ["g-listed", "g-watched"]],
    ] as const) {
      const objects = informer.store.list() as (KubernetesObject & Record<string, unknown>)[];
      expect(objects.map(nameOf).sort()).toEqual([...names]);
      for (const o of objects) {
        expect(o.kind).toBe("PartialObjectMetadata");
        expect(o.apiVersion).toBe("meta.k8s.io/v1");
        expect(Object.keys(o).sort()).toEqual(["apiVersion", "kind", "metadata"]);
        expect(o.metadata?.resourceVersion).toMatch(/^\d+$/);
        expect(o.metadata?.labels?.app).toBeDefined();
      }
    }
    expect(errors).toEqual([]);
    expect(storeState(builtin)).toEqual(await serverState(s.t, configMapsPath(ns)));
  });
});

describe("selectors", () => {
  it("S39: with label and field selectors, objects that stop matching arrive as deletes and ones that start matching as adds", async () => {
    const ns = uniqueName("s39");
    await createNamespace(s.t, ns);
    await createConfigMap(s.t, ns, "front-1", {}, { tier: "front" });
    await createConfigMap(s.t, ns, "back-1", {}, { tier: "back" });
    const recorder = new Recorder();
    const byLabel = s.informer({
      namespace: ns,
      labelSelector: { tier: "front" },
    });
    byLabel.addEventHandler(recorder.handlers);
    await synced(byLabel);
    await patchConfigMap(s.t, ns, "front-1", { metadata: { labels: { tier: "back" } } });
    await patchConfigMap(s.t, ns, "back-1", { metadata: { labels: { tier: "front" } } });
    await recorder.until((l) => l.length === 3, "leave and join");

    expect(recorder.log).toEqual([
      { type: "add", name: "front-1", rv: expect.any(String), initial: true },
      { type: "delete", name: "front-1", rv: expect.any(String), tombstone: false },
      { type: "add", name: "back-1", rv: expect.any(String), initial: false },
    ]);
    expect(byLabel.store.keys()).toEqual([`${ns}/back-1`]);

    const fieldRecorder = new Recorder();
    const byName = s.informer({
      namespace: ns,
      fieldSelector: "metadata.name=back-1",
    });
    byName.addEventHandler(fieldRecorder.handlers);
    await synced(byName);
    await createConfigMap(s.t, ns, "other");
    await s.t.call("DELETE", `${configMapsPath(ns)}/back-1`);
    await fieldRecorder.until((l) => l.length === 2, "delete of back-1");
    expect(fieldRecorder.log.map((r) => `${r.type}:${r.name}`)).toEqual(["add:back-1", "delete:back-1"]);
    expect(byName.store.size).toBe(0);
  });
});
