/**
 * Issue 31 (SV1f): a PersistentVolumeClaim update held to kube-apiserver 1.37's rules — the spec is
 * immutable except a volumeName set once, a storage class given where there was none, and a bound
 * claim's storage request; the beta storage-class annotation stays; the request shrinks only above
 * the recorded capacity. Upstream appends a diff to the immutable-spec message: only its first line
 * is compared (docs/divergences.md SV1f).
 */
import { describe, expect, it } from "vitest";
import { podValidationSuite } from "./pod-validation-suite.js";
import { createThenPut } from "./spec-validation-cases.js";

const { target, podPath } = podValidationSuite("val-pvcupd");
const claims = () => podPath().replace(/pods$/, "persistentvolumeclaims");

type Json = Record<string, unknown>;
let claimCount = 0;
/** A claim of its own name: kube-apiserver's pvc-protection finalizer keeps deleted claims here. */
const claim = (spec: Json = {}, annotations?: Record<string, string>): Json => ({
  metadata: { name: `claim-${++claimCount}`, ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...spec },
});
const withSpec = (extra: Json) => (created: Json) => ({
  ...created,
  spec: { ...(created.spec as Json), ...extra },
});
const firstLine = (c: string) => c.split("\n")[0] as string;

const IMMUTABLE =
  "spec | FieldValueForbidden | Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims";
const BETA = "volume.beta.kubernetes.io/storage-class";

/** [what, the created claim, the update, the causes (first lines)]. */
const UPDATES: [string, Json, (created: Json) => Json, string[]][] = [
  ["a volumeName set on an unbound claim", claim(), withSpec({ volumeName: "pv-1" }), []],
  ["a changed volumeName", claim({ volumeName: "pv-1" }), withSpec({ volumeName: "pv-2" }), [IMMUTABLE]],
  ["a storage class where there was none", claim(), withSpec({ storageClassName: "fast" }), []],
  [
    "a changed storage class",
    claim({ storageClassName: "fast" }),
    withSpec({ storageClassName: "slow" }),
    [IMMUTABLE],
  ],
  [
    "a larger request of an unbound claim",
    claim(),
    withSpec({ resources: { requests: { storage: "2Gi" } } }),
    [IMMUTABLE],
  ],
  ["changed access modes", claim(), withSpec({ accessModes: ["ReadWriteMany"] }), [IMMUTABLE]],
  [
    "a changed volume mode",
    claim(),
    withSpec({ volumeMode: "Block" }),
    [IMMUTABLE, 'volumeMode | FieldValueInvalid | Invalid value: "Block": field is immutable'],
  ],
  [
    "the storage class of the beta annotation",
    claim({}, { [BETA]: "fast" }),
    withSpec({ storageClassName: "fast" }),
    [],
  ],
  [
    "a changed beta storage-class annotation",
    claim({}, { [BETA]: "fast" }),
    (created) => ({
      ...created,
      metadata: { ...(created.metadata as Json), annotations: { [BETA]: "slow" } },
    }),
    [`metadata.annotations.${BETA} | FieldValueInvalid | Invalid value: "slow": field is immutable`],
  ],
];

describe("PersistentVolumeClaim updates", () => {
  for (const [what, body, update, causes] of UPDATES)
    it(`answers an update with ${what} as kube-apiserver does`, async () => {
      const res = await createThenPut(target(), claims(), body, update);
      expect(res.status, res.message).toBe(causes.length === 0 ? 200 : 422);
      expect(res.causes.map(firstLine).sort()).toEqual([...causes].sort());
    });

  it("lets a bound claim shrink its request only above the recorded capacity", async () => {
    const t = target();
    const body = claim({ resources: { requests: { storage: "2Gi" } } });
    const name = (body.metadata as Json).name as string;
    const created = await t.call("POST", claims(), { body });
    expect(created.status).toBe(201);
    const bound = await t.call("PUT", `${claims()}/${name}/status`, {
      body: { ...created.json, status: { phase: "Bound", capacity: { storage: "1Gi" } } },
    });
    expect(bound.status, JSON.stringify(bound.json)).toBe(200);
    const shrink = (storage: string) =>
      t.call("PUT", `${claims()}/${name}?dryRun=All`, {
        body: withSpec({ resources: { requests: { storage } } })(bound.json),
      });
    const below = await shrink("1Gi");
    const above = await shrink("1536Mi");
    await t.call("DELETE", `${claims()}/${name}`);
    expect(above.status, JSON.stringify(above.json)).toBe(200);
    expect(below.status).toBe(422);
    expect(below.json.details.causes).toEqual([
      {
        reason: "FieldValueForbidden",
        message: "Forbidden: field can not be less than status.capacity",
        field: "spec.resources.requests.storage",
      },
    ]);
  });
});
