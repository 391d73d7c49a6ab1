// The informer's requests are the client's: these tests check what reaches the transport when an
// informer lists and watches, without a server.
import { Kube } from "@kubesdk/client";
import { protobufCodec } from "@kubesdk/client/protobuf";
import type { ApiRequest, HttpTransport } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { InvalidListResponseError } from "../src/index.js";
import { clientListerWatcher } from "../src/list-watcher.js";

interface Sent {
  readonly request: ApiRequest;
  readonly options: Record<string, unknown>;
}

function spyClient(listBody: unknown = { metadata: { resourceVersion: "7" }, items: [] }, protobuf = false) {
  const sent: Sent[] = [];
  const transport = {
    connection: { namespace: "team" },
    async request(request: ApiRequest, options: Record<string, unknown>) {
      sent.push({ request, options });
      const body = new TextEncoder().encode(JSON.stringify(listBody));
      return { status: 200, headers: { "content-type": "application/json" }, body };
    },
    // Bodies are JSON: the client's body readers decline them and the whole body is read.
    requestRead(request: ApiRequest, options: Record<string, unknown>) {
      return (this as unknown as HttpTransport).request(request, options);
    },
    watch(request: ApiRequest, options: Record<string, unknown>) {
      sent.push({ request, options });
      return { close() {} };
    },
  } as unknown as HttpTransport;
  return { kube: new Kube(transport, protobuf ? { protobuf, protobufCodec } : {}), sent };
}

const signal = new AbortController().signal;

describe("the informer lists and watches through the client", () => {
  it("uses the client's namespace rule: default namespace, or all namespaces when asked", async () => {
    const { kube, sent } = spyClient();
    const pods = kube.resource("v1", "Pod");
    await clientListerWatcher(pods, {}).list({ limit: 10 }, { signal });
    await clientListerWatcher(pods, { allNamespaces: true }).list({}, { signal });
    await clientListerWatcher(kube.resource("v1", "Node"), {}).list({}, { signal });
    expect(sent.map((s) => s.request.path)).toEqual([
      "/api/v1/namespaces/team/pods",
      "/api/v1/pods",
      "/api/v1/nodes",
    ]);
    expect(sent[0]?.request.query).toMatchObject({ limit: 10 });
  });

  it("refuses what the client refuses, when the informer is created", () => {
    const { kube } = spyClient();
    expect(() => clientListerWatcher(kube.resource("v1", "Pod"), { namespace: ".." })).toThrow(/URL path/);
    expect(() => clientListerWatcher(kube.resource("v1", "Node"), { namespace: "a" })).toThrow(
      /cluster-scoped/,
    );
  });

  it("sends selectors given as text or as records, and no transport retries", async () => {
    const { kube, sent } = spyClient();
    const lw = clientListerWatcher(kube.resource("v1", "Pod"), {
      labelSelector: { app: "web", tier: "front" },
      fieldSelector: { "spec.nodeName": "n1" },
    });
    await lw.list({ continue: "tok", limit: 5 }, { signal });
    lw.watch(
      { resourceVersion: "9", allowWatchBookmarks: true, timeoutSeconds: 301 },
      { signal, idleTimeoutMs: 50 },
    );
    const [list, watch] = sent;
    expect(list?.request.query).toMatchObject({
      labelSelector: "app=web,tier=front",
      fieldSelector: "spec.nodeName=n1",
      continue: "tok",
      limit: 5,
    });
    expect(list?.options).toMatchObject({ retries: false });
    expect(watch?.request.query).toMatchObject({
      watch: "true",
      resourceVersion: "9",
      allowWatchBookmarks: "true",
      timeoutSeconds: 301,
      labelSelector: "app=web,tier=front",
    });
    expect(watch?.options).toMatchObject({ retries: false, idleTimeoutMs: 50 });
  });

  it("asks for protobuf (built-ins only) and for metadata only as the client does", () => {
    const { kube, sent } = spyClient(undefined, true);
    const opts = { signal, idleTimeoutMs: 0 };
    clientListerWatcher(kube.resource("v1", "Pod"), {}).watch({ allowWatchBookmarks: true }, opts);
    const crons = kube.custom({ group: "x.io", version: "v1", plural: "crontabs", namespaced: true });
    clientListerWatcher(crons, {}).watch({ allowWatchBookmarks: true }, opts);
    clientListerWatcher(kube.resource("v1", "Pod").withEncoding("json").metadataOnly(), {}).watch(
      { allowWatchBookmarks: true },
      opts,
    );
    expect(sent.map((s) => s.request.accept)).toEqual([
      "application/vnd.kubernetes.protobuf, application/json",
      "application/json",
      "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
    ]);
  });

  it("fills in the kind of list items and checks the list's shape", async () => {
    const { kube } = spyClient({
      metadata: { resourceVersion: "3", continue: "c" },
      items: [{ metadata: { name: "a" } }],
    });
    const page = await clientListerWatcher(kube.resource("v1", "ConfigMap"), {}).list({}, { signal });
    expect(page).toEqual({
      resourceVersion: "3",
      continue: "c",
      items: [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } }],
    });
    const bad = spyClient({ metadata: {}, items: [] });
    await expect(
      clientListerWatcher(bad.kube.resource("v1", "ConfigMap"), {}).list({}, { signal }),
    ).rejects.toThrow(InvalidListResponseError);
  });
});
