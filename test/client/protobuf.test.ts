import type { Kube } from "@kubesdk/client";
import { protobufCodec } from "@kubesdk/client/protobuf";
import type { coreV1 } from "@kubesdk/models";
import { isAlreadyExists, isNotFound, type WatchEvent } from "@kubesdk/transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, type Exchange, namespacedSuite, recordingDispatcher, testDeployment } from "./support.js";

const PROTOBUF = "application/vnd.kubernetes.protobuf";
const suite = namespacedSuite("client-pb");
const recorder = recordingDispatcher();
let kube: Kube;

beforeAll(async () => {
  kube = await clientFor(suite.t, suite.ns, {
    protobuf: true,
    protobufCodec,
    transport: { dispatcherFactory: recorder.factory },
  });
});
afterAll(async () => {
  await kube.close();
});

/** The exchanges of `run`. */
async function exchangesOf(run: () => Promise<unknown>): Promise<Exchange[]> {
  const before = recorder.exchanges.length;
  await run();
  return recorder.exchanges.slice(before);
}

describe("protobuf for built-in kinds", () => {
  const configMaps = () => kube.resource("v1", "ConfigMap");

  it("sends protobuf bodies and decodes protobuf answers to the same objects JSON gives", async () => {
    const [create] = await exchangesOf(() =>
      configMaps().create({ metadata: { name: "pb", labels: { pb: "yes" } }, data: { a: "1" } }),
    );
    expect(create).toMatchObject({
      request: `POST /api/v1/namespaces/${suite.ns}/configmaps`,
      accept: `${PROTOBUF}, application/json`,
      requestContentType: PROTOBUF,
      responseContentType: PROTOBUF,
    });
    const viaProtobuf = await configMaps().get("pb");
    const viaJson = await suite.kube.resource("v1", "ConfigMap").get("pb");
    expect(viaProtobuf).toEqual(viaJson);

    const list = await configMaps().list({ labelSelector: "pb=yes" });
    expect(list.items.map((c) => [c.kind, c.metadata?.name, c.data])).toEqual([
      ["ConfigMap", "pb", { a: "1" }],
    ]);
    const patched = await configMaps().patch("pb", { type: "strategic", patch: { data: { b: "2" } } });
    expect(patched.data).toEqual({ a: "1", b: "2" });
  });

  it("writes and reads subresources in protobuf", async () => {
    await kube.resource("apps/v1", "Deployment").create(testDeployment("pb-scale", 1));
    const scale = await kube.resource("apps/v1", "Deployment").scale.get("pb-scale");
    const [replace] = await exchangesOf(() =>
      kube.resource("apps/v1", "Deployment").scale.replace({ ...scale, spec: { replicas: 3 } }),
    );
    expect(replace?.requestContentType).toBe(PROTOBUF);
    expect((await kube.resource("apps/v1", "Deployment").get("pb-scale")).spec.replicas).toBe(3);
  });

  it("watches over length-prefixed protobuf frames", async () => {
    const start = await configMaps().list();
    const events: WatchEvent<coreV1.ConfigMap>[] = [];
    const exchanges = await exchangesOf(async () => {
      const watch = configMaps().watch({
        resourceVersion: start.metadata?.resourceVersion as string,
        fieldSelector: "metadata.name=pb-watch",
      });
      await configMaps().create({ metadata: { name: "pb-watch" }, data: { v: "1" } });
      await configMaps().delete("pb-watch");
      for await (const event of watch) {
        events.push(event);
        if (event.type === "DELETED") break;
      }
    });
    expect(exchanges.find((e) => e.request.includes("watch=true"))?.responseContentType).toBe(
      `${PROTOBUF};stream=watch`,
    );
    expect(events.map((e) => [e.type, e.object.kind, e.object.data?.v])).toEqual([
      ["ADDED", "ConfigMap", "1"],
      ["DELETED", "ConfigMap", "1"],
    ]);
  });

  it("reads metadata-only lists in protobuf and Tables in JSON", async () => {
    const [metadata] = await exchangesOf(() => configMaps().metadataOnly().list({ labelSelector: "pb=yes" }));
    expect(metadata?.responseContentType).toBe(PROTOBUF);
    const list = await configMaps().metadataOnly().list({ labelSelector: "pb=yes" });
    expect(list.items.map((i) => [i.kind, i.metadata?.name])).toEqual([["PartialObjectMetadata", "pb"]]);

    const [table] = await exchangesOf(() => configMaps().asTable().list({ labelSelector: "pb=yes" }));
    // kube-apiserver labels a Table response plain "application/json" (the reference adds as=Table).
    expect(table?.responseContentType).toMatch(/^application\/json(;|$)/);
  });

  it("keeps API errors typed with the server's message and details", async () => {
    const missing = await configMaps()
      .get("missing")
      .catch((e: unknown) => e);
    expect(isNotFound(missing)).toBe(true);
    expect(missing).toMatchObject({
      reason: "NotFound",
      message: 'configmaps "missing" not found',
      details: { name: "missing", kind: "configmaps" },
    });
    await configMaps().create({ metadata: { name: "pb-dup" } });
    const duplicate = await configMaps()
      .create({ metadata: { name: "pb-dup" } })
      .catch((e: unknown) => e);
    expect(isAlreadyExists(duplicate)).toBe(true);
  });
});
