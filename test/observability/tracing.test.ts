/**
 * OpenTelemetry spans against a running server (both targets), captured with an in-memory exporter:
 * a CLIENT span per try with the HTTP conventions' attributes and its trace context sent along, a
 * span per watch counting its events, a span per informer list, and a span per reconcile.
 */
import { Kube } from "@kubesdk/client";
import { Action, Manager, silentLogger } from "@kubesdk/controller";
import { Informer } from "@kubesdk/informer";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { type CapturedSpans, captureSpans, headerRecorder } from "./support.js";

let t: TestTarget;
let spans: CapturedSpans;
let kube: Kube;
let ns: string;
const recorder = headerRecorder();

beforeAll(async () => {
  spans = captureSpans();
  t = await startTarget();
  kube = await Kube.fromKubeconfig({
    kubeconfig: { path: t.kubeconfigPath },
    transport: { dispatcherFactory: recorder.factory },
  });
  ns = uniqueName("traced");
  await kube.resource("v1", "Namespace").create({ metadata: { name: ns } });
});
afterAll(async () => {
  await kube.resource("v1", "Namespace").delete(ns);
  await kube.close();
  await t.close();
  await spans.close();
});

describe("spans", () => {
  it("a CLIENT span per request with method, URL and status, its trace context sent in traceparent", async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps/spanned`;
    const before = recorder.sent.length;
    await kube.resource("v1", "ConfigMap").create({ metadata: { name: "spanned" } }, { namespace: ns });
    await kube.resource("v1", "ConfigMap").get("spanned", { namespace: ns });
    await expect(kube.resource("v1", "ConfigMap").get("missing", { namespace: ns })).rejects.toMatchObject({
      statusCode: 404,
    });
    const url = new URL(t.url);
    const [get] = spans.find("GET", { "url.full": `${url.origin}${path}` });
    expect(get?.kind).toBe(SpanKind.CLIENT);
    expect(get?.attributes).toMatchObject({
      "http.request.method": "GET",
      "http.response.status_code": 200,
      "server.address": url.hostname,
      "server.port": Number(url.port),
    });
    expect(get?.status.code).not.toBe(SpanStatusCode.ERROR);
    const [missing] = spans.find("GET", {
      "url.full": `${url.origin}/api/v1/namespaces/${ns}/configmaps/missing`,
    });
    expect(missing?.status.code).toBe(SpanStatusCode.ERROR);
    expect(missing?.attributes["error.type"]).toBe("404");
    // The GET carried its own span's trace context to the server.
    const sent = recorder.sent.slice(before);
    const context = get?.spanContext();
    expect(sent[1]?.traceparent).toBe(`00-${context?.traceId}-${context?.spanId}-01`);
  });

  it("a watch span from connect to close, counting the events it delivered", async () => {
    const configMaps = kube.resource("v1", "ConfigMap");
    const list = await configMaps.list({ namespace: ns });
    const watch = configMaps.watch({ namespace: ns, resourceVersion: list.metadata?.resourceVersion ?? "0" });
    await configMaps.create({ metadata: { name: "watched" } }, { namespace: ns });
    for await (const event of watch) if (event.object.metadata?.name === "watched") break;
    const [span] = spans.find("watch", { "url.path": `/api/v1/namespaces/${ns}/configmaps` });
    expect(span?.attributes["kubesdk.watch.events"]).toBe(1);
    expect(span?.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it("an informer list span with the items listed, and a reconcile span per key", async () => {
    const configMaps = kube.resource("v1", "ConfigMap");
    const informer = new Informer(configMaps, { namespace: ns });
    informer.start();
    await informer.waitForSync();
    const cached = informer.store.list().length;
    await informer.stop();
    const [list] = spans.find("informer.list", { "kubesdk.resource": "v1 ConfigMap" });
    expect(list?.attributes).toMatchObject({
      "kubesdk.list.reason": "initial",
      "kubesdk.list.items": cached,
    });

    const reconciled = new Set<string>();
    let done: () => void = () => {};
    const all = new Promise<void>((resolve) => {
      done = resolve;
    });
    const manager = new Manager({ kube, logger: silentLogger });
    manager.controller({
      name: "traced-cm",
      resource: configMaps,
      namespace: ns,
      logger: silentLogger,
      reconcile: ({ key }) => {
        if (key.endsWith("/doomed")) throw new Error("reconcile refused");
        reconciled.add(key);
        if (reconciled.has(`${ns}/spanned`)) done();
        return Action.done();
      },
    });
    await configMaps.create({ metadata: { name: "doomed" } }, { namespace: ns });
    await manager.start();
    try {
      await all;
    } finally {
      await manager.stop();
    }
    const [ok] = spans.find("reconcile", {
      "kubesdk.controller": "traced-cm",
      "kubesdk.reconcile.key": `${ns}/spanned`,
    });
    expect(ok?.attributes["kubesdk.controller"]).toBe("traced-cm");
    expect(ok?.status.code).not.toBe(SpanStatusCode.ERROR);
    const failed = spans.find("reconcile", { "kubesdk.reconcile.key": `${ns}/doomed` });
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]?.status).toMatchObject({ code: SpanStatusCode.ERROR, message: "reconcile refused" });
  });
});
