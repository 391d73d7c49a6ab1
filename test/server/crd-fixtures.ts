/**
 * Shared setup of the CRD suites (crd.test.ts, crd-resources.test.ts): a namespace, two CRDs
 * (namespaced CronTabs with two versions, status, scale, columns and selectable fields; cluster-scoped
 * Widgets), and helpers. Test files share this module (vitest runs them with `isolate: false`), so
 * each file's useCrdFixtures() picks its own group: kube-apiserver may still be deleting the previous
 * file's CRDs when the next file starts.
 */
import { afterAll, beforeAll, expect } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { openWatch } from "../support/watch-client.js";

export let t: TestTarget;
export let ns: string;
/** The calling file's API group, set by useCrdFixtures() (a live binding, see there). */
export let group: string;
export const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

export const spec = {
  type: "object",
  properties: {
    cronSpec: { type: "string" },
    image: { type: "string", default: "nginx" },
    replicas: { type: "integer", minimum: 0 },
    mode: { type: "string", enum: ["fast", "slow"] },
    port: { "x-kubernetes-int-or-string": true },
    extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
  },
  required: ["cronSpec"],
};
export const schema = <S extends object>(specSchema: S) => ({
  openAPIV3Schema: {
    type: "object",
    properties: {
      spec: specSchema,
      status: { type: "object", properties: { replicas: { type: "integer" }, phase: { type: "string" } } },
    },
  },
});

/** A namespaced CRD with two served versions (v1 stores), status and scale on v1, columns and selectable fields. */
export const cronTabs = () =>
  structuredClone({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `crontabs.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural: "crontabs", singular: "crontab", kind: "CronTab", shortNames: ["ctk"] },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: schema(spec),
          subresources: {
            status: {},
            scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
          },
          additionalPrinterColumns: [
            { name: "Spec", type: "string", jsonPath: ".spec.cronSpec" },
            { name: "Replicas", type: "integer", jsonPath: ".spec.replicas" },
          ],
          selectableFields: [{ jsonPath: ".spec.mode" }],
        },
        { name: "v1beta1", served: true, storage: false, schema: schema({ ...spec, required: [] }) },
      ],
    },
  });

export const widgets = () => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `widgets.${group}` },
  spec: {
    group,
    scope: "Cluster",
    names: { plural: "widgets", kind: "Widget" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: { spec: { type: "object", properties: { color: { type: "string" } } } },
          },
        },
      },
    ],
  },
});

export const base = (version = "v1") => `/apis/${group}/${version}/namespaces/${ns}/crontabs`;
export const cronTab = (name: string, s: Record<string, unknown> = {}, version = "v1") => ({
  apiVersion: `${group}/${version}`,
  kind: "CronTab",
  metadata: { name },
  spec: { cronSpec: "* * * * *", replicas: 1, ...s },
});

/** Waits (on a watch, not a timer) until the CRD reports Established=True. */
export async function established(name: string): Promise<Record<string, unknown>> {
  const w = await openWatch(t, `${CRDS}?watch=true&fieldSelector=metadata.name%3D${name}`);
  try {
    const seen = await w.until((e) =>
      (e.object?.status?.conditions ?? []).some(
        (c: { type: string; status: string }) => c.type === "Established" && c.status === "True",
      ),
    );
    return (seen.at(-1) as { object: Record<string, unknown> }).object;
  } finally {
    await w.close();
  }
}

/** Deletes a CRD and waits (on a watch) for it to be gone; upstream first runs its cleanup finalizer. */
export async function deleteCrd(name: string): Promise<void> {
  const w = await openWatch(t, `${CRDS}?watch=true&fieldSelector=metadata.name%3D${name}`);
  try {
    const res = await t.call("DELETE", `${CRDS}/${name}`);
    expect(res.status).toBe(200);
    await w.until((e) => e.type === "DELETED");
  } finally {
    await w.close();
  }
}

/** A Status's causes as [field, reason, message] rows. */
export function causesOf(status: {
  details: { causes: Array<{ field: string; reason: string; message: string }> };
}) {
  return status.details.causes.map((c) => [c.field, c.reason, c.message]);
}

export function first<T>(items: readonly T[]): T {
  const item = items[0];
  if (item === undefined) throw new Error("expected at least one item");
  return item;
}

/**
 * Repeats a read until `done` holds (at most ~5 s). Only for what upstream applies asynchronously
 * without any event to wait for: a CRD change reaching its resources' handler. The reference
 * server applies it at once, so the first read succeeds there.
 */
export async function eventually<T>(read: () => Promise<T>, done: (r: T) => boolean): Promise<T> {
  let last = await read();
  for (let i = 0; i < 100 && !done(last); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await read();
  }
  return last;
}

export let crdStatus: Record<string, unknown>;

/** Registers the suite hooks: one server (or the real one), a namespace, and the two CRDs, Established. */
export function useCrdFixtures(): void {
  // Set now for the file's top-level code (vitest may collect every file of a worker before running
  // any), and again when the file's tests start, since later files reassign it meanwhile.
  const own = `${uniqueName("crd")}.kubesdk.example`;
  group = own;
  beforeAll(async () => {
    group = own;
    t = await startTarget();
    ns = uniqueName("crd");
    expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(
      201,
    );
    const created = await t.call("POST", CRDS, { body: cronTabs() });
    expect(created.status).toBe(201);
    // Right after the write the controllers have not run yet: accepted names empty, the storage version stored.
    expect(created.json.status.storedVersions).toEqual(["v1"]);
    crdStatus = (await established(`crontabs.${group}`)).status as Record<string, unknown>;
    expect((await t.call("POST", CRDS, { body: widgets() })).status).toBe(201);
    await established(`widgets.${group}`);
  });
  afterAll(async () => {
    await t.call("DELETE", `/api/v1/namespaces/${ns}`);
    await t.call("DELETE", `${CRDS}/crontabs.${own}`);
    await t.call("DELETE", `${CRDS}/widgets.${own}`);
    await t.close();
  });
}
