/**
 * Setup of crd-conversion.test.ts: a CRD `Backends` with two versions (v1 stores `spec.host` and
 * `spec.port`, v2 has `spec.endpoint: "host:port"`) whose Webhook conversion is served from the test
 * process (test/support/https-webhook.ts), registered by url with its caBundle.
 */
import { beforeAll, expect } from "vitest";
import { type HttpsWebhook, startHttpsWebhook } from "../support/https-webhook.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { openWatch } from "../support/watch-client.js";

export const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
/** The calling file's API group and CRD name, set by useConversionGroup() (live bindings). */
export let group: string;
export let crdName: string;

/**
 * Gives the calling test file its own group. Files share this module (vitest's `isolate: false`),
 * and kube-apiserver may still be deleting the previous file's CRD when the next file starts. Set
 * now for the file's top-level code (vitest may collect every file of a worker before running any)
 * and again when its tests start, since later files reassign it meanwhile.
 */
export function useConversionGroup(): void {
  const own = `${uniqueName("conv")}.kubesdk.example`;
  const claim = () => {
    group = own;
    crdName = `backends.${own}`;
  };
  claim();
  beforeAll(claim);
}

type Obj = Record<string, unknown> & { apiVersion: string; metadata: Record<string, unknown> };
type Review = { request: { uid: string; desiredAPIVersion: string; objects: Obj[] } };

/** The test's converter: v1 {host, port} <-> v2 {endpoint}; other fields and metadata kept. */
export function convertBackend(obj: Obj, to: string): Obj {
  const spec = { ...((obj.spec as Record<string, unknown> | undefined) ?? {}) };
  if (to.endsWith("/v2") && obj.apiVersion.endsWith("/v1")) {
    const { host, port, ...rest } = spec;
    return { ...obj, apiVersion: to, spec: { ...rest, endpoint: `${String(host)}:${String(port)}` } };
  }
  if (to.endsWith("/v1") && obj.apiVersion.endsWith("/v2")) {
    const { endpoint, ...rest } = spec;
    const [host, port] = String(endpoint).split(":");
    return { ...obj, apiVersion: to, spec: { ...rest, host, port: Number(port) } };
  }
  return { ...obj, apiVersion: to };
}

/** A correct ConversionReview answer. */
export function convertReview(body: unknown): unknown {
  const { request } = body as Review;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    response: {
      uid: request.uid,
      result: { status: "Success" },
      convertedObjects: request.objects.map((o) => convertBackend(o, request.desiredAPIVersion)),
    },
  };
}

const version = (name: string, storage: boolean, spec: Record<string, unknown>) => ({
  name,
  served: true,
  storage,
  schema: {
    openAPIV3Schema: {
      type: "object",
      properties: { spec: { type: "object", properties: spec } },
    },
  },
});

export function backendsCrd(wh: HttpsWebhook, path = "/convert", storage: "v1" | "v2" = "v1") {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: crdName },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural: "backends", singular: "backend", kind: "Backend" },
      versions: [
        version("v1", storage === "v1", {
          host: { type: "string" },
          port: { type: "integer" },
          tier: { type: "string", default: "gold" },
        }),
        version("v2", storage === "v2", { endpoint: { type: "string" }, tier: { type: "string" } }),
      ],
      conversion: {
        strategy: "Webhook",
        webhook: {
          conversionReviewVersions: ["v1"],
          clientConfig: { url: `${wh.url}${path}`, caBundle: wh.caBundle },
        },
      },
    },
  };
}

export interface ConversionSetup {
  t: TestTarget;
  wh: HttpsWebhook;
  ns: string;
  base: (v: "v1" | "v2") => string;
}

/** Starts the target and the webhook, creates a namespace and the CRD, and waits until v2 answers. */
export async function setUp(): Promise<ConversionSetup> {
  const t = await startTarget();
  const wh = await startHttpsWebhook();
  wh.handle("/convert", convertReview);
  const ns = uniqueName("conv");
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  expect((await t.call("POST", CRDS, { body: backendsCrd(wh) })).status).toBe(201);
  await established(t, crdName);
  const base = (v: "v1" | "v2") => `/apis/${group}/${v}/namespaces/${ns}/backends`;
  // kube-apiserver serves a new CRD's versions a little after Established: retry a bounded number of times.
  await retryUntil(
    () => t.call("GET", base("v2")),
    (r) => r.status === 200,
  );
  return { t, wh, ns, base };
}

/** Waits (on a watch) until the CRD reports Established=True. */
export async function established(t: TestTarget, name: string): Promise<void> {
  const w = await openWatch(t, `${CRDS}?watch=true&fieldSelector=metadata.name%3D${name}`);
  try {
    await w.until((e) =>
      (e.object?.status?.conditions ?? []).some(
        (c: { type: string; status: string }) => c.type === "Established" && c.status === "True",
      ),
    );
  } finally {
    await w.close();
  }
}

/**
 * Repeats a read until `done` holds (at most 100 tries). Only for what kube-apiserver applies
 * asynchronously with no event to wait for: a CRD change reaching the handlers of its resources.
 */
export async function retryUntil<T>(read: () => Promise<T>, done: (r: T) => boolean): Promise<T> {
  let last = await read();
  for (let i = 0; i < 100 && !done(last); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await read();
  }
  return last;
}

export const backendV1 = (name: string, host = "db", port = 5432) => ({
  apiVersion: `${group}/v1`,
  kind: "Backend",
  metadata: { name, labels: { app: "conv" } },
  spec: { host, port },
});

export const backendV2 = (name: string, endpoint = "cache:6379") => ({
  apiVersion: `${group}/v2`,
  kind: "Backend",
  metadata: { name, labels: { app: "conv" } },
  spec: { endpoint },
});

/** The ConversionReview requests the webhook received after `from` (an index into wh.requests). */
export function reviewsSince(wh: HttpsWebhook, from: number): Review["request"][] {
  return wh.requests.slice(from).map((r) => (r.body as Review).request);
}
