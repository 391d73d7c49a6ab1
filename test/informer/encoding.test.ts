/**
 * Informers read built-in kinds in protobuf by default when the client has a protobuf codec (JSON
 * without one), in the client's encoding when it was chosen (Kube option `protobuf`), and in
 * JSON when one informer asks for it. Runs against the
 * reference server and a real kube-apiserver.
 */
import { Kube } from "@kubesdk/client";
import { protobufCodec } from "@kubesdk/client/protobuf";
import { Informer, InformerFactory } from "@kubesdk/informer";
import type { ApiRequest, HttpTransport } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import {
  configMapsPath,
  createConfigMap,
  FAST_BACKOFF,
  patchConfigMap,
  serverState,
  storeState,
  untilState,
} from "./support/harness.js";
import { useInformerSuite } from "./support/suite.js";

const s = useInformerSuite();

/** The suite's transport, noting the Accept header of every list and watch. */
function recording(transport: HttpTransport): { transport: HttpTransport; accepts: string[] } {
  const accepts: string[] = [];
  const note = (request: ApiRequest) =>
    accepts.push(`${request.query?.watch ? "watch" : "list"} ${request.accept}`);
  const wrapped = new Proxy(transport, {
    get(target, property) {
      if (property === "request" || property === "requestRead" || property === "watch")
        return (request: ApiRequest, ...rest: unknown[]) => {
          note(request);
          return (target[property] as (r: ApiRequest, ...o: unknown[]) => unknown).call(
            target,
            request,
            ...rest,
          );
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { transport: wrapped, accepts };
}

describe("informer encodings", () => {
  it("an informer of a protobuf client lists and watches in protobuf; encoding: json overrides it", async () => {
    const ns = await s.namespace("enc", 3);
    const { transport, accepts } = recording(s.transport);
    const kube = new Kube(transport, { protobuf: true, protobufCodec, namespace: ns });
    const proto = new Informer(kube.resource("v1", "ConfigMap"), { backoff: FAST_BACKOFF });
    const json = new Informer(kube.resource("v1", "ConfigMap"), { backoff: FAST_BACKOFF, encoding: "json" });
    try {
      for (const informer of [proto, json]) await s.synced(informer);
      await createConfigMap(s.t, ns, "live", { text: "é😀" });
      await patchConfigMap(s.t, ns, "cm-0", { data: { changed: "yes" } });
      for (const informer of [proto, json]) {
        await untilState(informer, () => informer.store.get(`${ns}/live`) !== undefined, "live object");
        await untilState(informer, () => informer.store.get(`${ns}/cm-0`)?.data?.changed === "yes", "update");
        expect(storeState(informer)).toEqual(await serverState(s.t, configMapsPath(ns)));
        expect(informer.store.get(`${ns}/live`)).toMatchObject({
          apiVersion: "v1",
          kind: "ConfigMap",
          data: { text: "é😀" },
        });
      }
    } finally {
      await Promise.all([proto.stop(), json.stop()]);
    }
    const protobuf = "application/vnd.kubernetes.protobuf, application/json";
    expect(new Set(accepts)).toEqual(
      new Set([`list ${protobuf}`, `watch ${protobuf}`, "list application/json", "watch application/json"]),
    );
  });

  it("by default an informer reads protobuf; a client made with protobuf: false keeps it on JSON", async () => {
    const ns = await s.namespace("enc-default", 2);
    const plain = recording(s.transport);
    const jsonOnly = recording(s.transport);
    const unchosen = new Kube(plain.transport, { protobufCodec, namespace: ns });
    const chosen = new Kube(jsonOnly.transport, { protobuf: false, protobufCodec, namespace: ns });
    const byDefault = new Informer(unchosen.resource("v1", "ConfigMap"), { backoff: FAST_BACKOFF });
    const json = new Informer(chosen.resource("v1", "ConfigMap"), { backoff: FAST_BACKOFF });
    // The factory applies the same default; one informer per resource, and per factory.
    const factory = new InformerFactory(unchosen);
    const shared = factory.informer("v1", "ConfigMap");
    try {
      expect(factory.informer("v1", "ConfigMap")).toBe(shared);
      expect(new InformerFactory(unchosen, { encoding: "protobuf" }).informer("v1", "ConfigMap")).not.toBe(
        shared,
      );
      for (const informer of [byDefault, json]) {
        await s.synced(informer);
        expect(storeState(informer)).toEqual(await serverState(s.t, configMapsPath(ns)));
      }
      // Plain requests of the unchosen client stay JSON.
      await unchosen.resource("v1", "ConfigMap").list();
    } finally {
      await Promise.all([byDefault.stop(), json.stop(), factory.stop()]);
    }
    const protobuf = "application/vnd.kubernetes.protobuf, application/json";
    // The informer's list and watch(es) in protobuf, the one plain list in JSON.
    expect(new Set(plain.accepts)).toEqual(
      new Set([`list ${protobuf}`, `watch ${protobuf}`, "list application/json"]),
    );
    expect(plain.accepts.filter((a) => a === "list application/json")).toHaveLength(1);
    expect(new Set(jsonOnly.accepts)).toEqual(new Set(["list application/json", "watch application/json"]));
  });

  it("without a protobuf codec an informer reads JSON, and asking for protobuf is a ClientError", async () => {
    const ns = await s.namespace("enc-nocodec", 2);
    const { transport, accepts } = recording(s.transport);
    const kube = new Kube(transport, { namespace: ns });
    const informer = new Informer(kube.resource("v1", "ConfigMap"), { backoff: FAST_BACKOFF });
    try {
      await s.synced(informer);
      expect(storeState(informer)).toEqual(await serverState(s.t, configMapsPath(ns)));
    } finally {
      await informer.stop();
    }
    expect(new Set(accepts)).toEqual(new Set(["list application/json", "watch application/json"]));
    expect(() => new Informer(kube.resource("v1", "ConfigMap"), { encoding: "protobuf" })).toThrow(
      expect.objectContaining({ code: "PROTOBUF_UNSUPPORTED" }),
    );
    expect(() => new Kube(transport, { protobuf: true })).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION" }),
    );
  });

  it("a metadata-only informer of a protobuf client caches PartialObjectMetadata", async () => {
    const ns = await s.namespace("enc-meta", 2);
    const { transport, accepts } = recording(s.transport);
    const kube = new Kube(transport, { protobuf: true, protobufCodec, namespace: ns });
    const names = new Informer(kube.resource("v1", "ConfigMap").metadataOnly(), { backoff: FAST_BACKOFF });
    try {
      await s.synced(names);
      await createConfigMap(s.t, ns, "live", { secret: "payload" });
      await untilState(names, () => names.store.get(`${ns}/live`) !== undefined, "live object");
      expect(storeState(names)).toEqual(await serverState(s.t, configMapsPath(ns)));
      for (const o of names.store.list()) {
        expect(o.kind).toBe("PartialObjectMetadata");
        expect(o.apiVersion).toBe("meta.k8s.io/v1");
        expect(Object.keys(o).sort()).toEqual(["apiVersion", "kind", "metadata"]);
      }
    } finally {
      await names.stop();
    }
    expect(
      accepts.every((a) => a.includes("application/vnd.kubernetes.protobuf;as=PartialObjectMetadata")),
    ).toBe(true);
  });
});
