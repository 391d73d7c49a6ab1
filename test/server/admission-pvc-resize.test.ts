/**
 * PersistentVolumeClaimResize admission on both servers
 * (packages/server/src/admission/plugins/persistent-volume-claim-resize.ts): a bound claim's
 * storage request grows only when its StorageClass allows volume expansion. Claims are marked Bound
 * through `/status` (no volume controller runs on kube-apiserver alone); growth is tried as a dry
 * run. kube-apiserver's plugin reads classes from an informer, so the first request that depends on
 * a new class is repeated until it is seen.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;
const classes: string[] = [];
const storageClasses = "/apis/storage.k8s.io/v1/storageclasses";
const MERGE = "application/merge-patch+json";

async function storageClass(allowVolumeExpansion: boolean | undefined): Promise<string> {
  const name = uniqueName("resize-sc");
  const res = await t.call("POST", storageClasses, {
    body: {
      metadata: { name },
      provisioner: "example.com/csi",
      ...(allowVolumeExpansion === undefined ? {} : { allowVolumeExpansion }),
    },
  });
  expect(res.status, res.text).toBe(201);
  classes.push(name);
  return name;
}

/** A claim of `className` requesting 1Gi, marked Bound with 1Gi of capacity unless `bound` is false. */
async function claim(className: string, bound = true): Promise<string> {
  const name = uniqueName("claim");
  const base = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
  const res = await t.call("POST", base, {
    body: {
      metadata: { name },
      spec: {
        storageClassName: className,
        accessModes: ["ReadWriteOnce"],
        resources: { requests: { storage: "1Gi" } },
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  if (bound) {
    const status = await t.call("PATCH", `${base}/${name}/status`, {
      body: { status: { phase: "Bound", accessModes: ["ReadWriteOnce"], capacity: { storage: "1Gi" } } },
      contentType: MERGE,
    });
    expect(status.status, status.text).toBe(200);
  }
  return name;
}

const grow = (name: string, storage: string) =>
  t.call("PATCH", `/api/v1/namespaces/${ns}/persistentvolumeclaims/${name}?dryRun=All`, {
    body: { spec: { resources: { requests: { storage } } } },
    contentType: MERGE,
  });

const REFUSED =
  "only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize";

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("pvc-resize");
  const res = await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  expect(res.status, res.text).toBe(201);
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  for (const name of classes) await t.call("DELETE", `${storageClasses}/${name}`);
  await t.close();
});

describe("PersistentVolumeClaimResize admission", () => {
  it("growing a bound claim whose class does not allow expansion is 403", async () => {
    for (const allow of [undefined, false]) {
      const name = await claim(await storageClass(allow));
      const res = await grow(name, "2Gi");
      expect(res.status, res.text).toBe(403);
      expect(res.json).toMatchObject({
        reason: "Forbidden",
        message: `persistentvolumeclaims "${name}" is forbidden: ${REFUSED}`,
        details: { name, kind: "persistentvolumeclaims" },
      });
    }
  });

  it("growing a bound claim whose class allows expansion is admitted", async () => {
    const name = await claim(await storageClass(true));
    await vi.waitFor(
      async () => {
        const res = await grow(name, "2Gi");
        expect(res.status, res.text).toBe(200);
        expect(res.json.spec.resources.requests.storage).toBe("2Gi");
      },
      { timeout: 5000 },
    );
  });

  it("a claim naming a class that does not exist may not grow", async () => {
    const name = await claim(uniqueName("missing-sc"));
    const res = await grow(name, "5Gi");
    expect(res.status, res.text).toBe(403);
    expect(res.json.message).toBe(`persistentvolumeclaims "${name}" is forbidden: ${REFUSED}`);
  });

  it("a request written again at the same size is not a resize", async () => {
    const name = await claim(await storageClass(false));
    const res = await grow(name, "1024Mi");
    expect(res.status, res.text).toBe(200);
  });
});
