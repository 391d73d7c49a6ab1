import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPlainFailure as expectPatchFailure } from "../support/plain-failure.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let name: string;
const D = "/apis/apps/v1/namespaces/default/deployments";
const SMP = "application/strategic-merge-patch+json";

beforeAll(async () => {
  t = await startTarget();
  name = uniqueName("smp");
  const created = await t.call("POST", D, {
    body: {
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: "x" } },
        template: {
          metadata: { labels: { app: "x" } },
          spec: {
            containers: [
              { name: "c", image: "i" },
              { name: "d", image: "j" },
            ],
          },
        },
      },
    },
  });
  expect(created.status, created.text).toBe(201);
});
afterAll(async () => {
  await t.call("DELETE", `${D}/${name}`);
  await t.close();
});

const patch = (body: unknown) =>
  t.call("PATCH", `${D}/${name}?dryRun=All`, { rawBody: JSON.stringify(body), contentType: SMP });
const containers = (cs: unknown[]) => ({ spec: { template: { spec: { containers: cs } } } });
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
type Json = any;
const images = (res: { json: Json }) =>
  res.json.spec.template.spec.containers.map((c: Json) => `${c.name}=${c.image}`);

describe("strategic merge patch directives", () => {
  it("items naming one merge key several times merge into one item", async () => {
    const res = await patch(
      containers([
        { name: "c", image: "a" },
        { name: "c", image: "b" },
        { name: "e", image: "1" },
        { name: "e", image: "2" },
      ]),
    );
    expect(res.status).toBe(200);
    expect(images(res)).toEqual(["c=b", "e=2", "d=j"]);
  });

  it("a $patch other than replace or delete in a map is refused with upstream's message", async () => {
    expectPatchFailure(
      await patch({ spec: { $patch: "bogus" } }),
      "unknown patch type: bogus in map: map[$patch:bogus]",
    );
    expectPatchFailure(
      await patch({ spec: { $patch: "merge", replicas: 3 } }),
      "unknown patch type: merge in map: map[$patch:merge replicas:3]",
    );
    expectPatchFailure(
      await patch({ spec: { $patch: 5 } }),
      "unknown patch type: %!s(int64=5) in map: map[$patch:5]",
    );
  });

  it("list items: $patch merge, unknown directives and missing merge keys are refused", async () => {
    expectPatchFailure(
      await patch(containers([{ $patch: "merge" }])),
      "merging lists cannot yet be specified in the patch",
    );
    expectPatchFailure(
      await patch(containers([{ name: "c", $patch: "bogus" }])),
      "unknown patch type: bogus in map: map[$patch:bogus name:c]",
    );
    expectPatchFailure(
      await patch(containers([{ image: "x" }])),
      "map: map[image:x] does not contain declared merge key: name",
    );
  });

  it("$patch delete removes an item; $patch replace replaces a map", async () => {
    const deleted = await patch(containers([{ name: "d", $patch: "delete" }]));
    expect(images(deleted)).toEqual(["c=i"]);
    const replaced = await patch({
      spec: {
        template: {
          $patch: "replace",
          metadata: { labels: { app: "x" } },
          spec: { containers: [{ name: "z", image: "z" }] },
        },
      },
    });
    expect(images(replaced)).toEqual(["z=z"]);
  });

  it("$retainKeys must be a list naming every field the patch sets", async () => {
    for (const body of [
      { spec: { strategy: { $retainKeys: "x" } } },
      { spec: { strategy: { $retainKeys: ["type"], rollingUpdate: { maxSurge: 1 } } } },
    ]) {
      const res = await patch(body);
      expect(res.status).toBe(400);
      expect(res.json.reason).toBe("BadRequest");
      expect(res.json.message).toBe("invalid patch format of retainKeys");
    }
    const ok = await patch({ spec: { strategy: { $retainKeys: ["type"], type: "Recreate" } } });
    expect(ok.status).toBe(200);
    expect(ok.json.spec.strategy).toEqual({ type: "Recreate" });
  });

  it("$setElementOrder reorders a list, and must be a list of items with the merge key in patch order", async () => {
    const reordered = await patch({
      spec: { template: { spec: { "$setElementOrder/containers": [{ name: "d" }, { name: "c" }] } } },
    });
    expect(images(reordered)).toEqual(["d=j", "c=i"]);
    expectPatchFailure(
      await patch({ spec: { template: { spec: { "$setElementOrder/containers": "x" } } } }),
      "expected a []interface {}, but received a string",
    );
    expectPatchFailure(
      await patch({
        spec: {
          template: {
            spec: {
              "$setElementOrder/containers": [{ name: "d" }, { name: "c" }],
              containers: [
                { name: "c", image: "q" },
                { name: "d", image: "r" },
              ],
            },
          },
        },
      }),
      "The order in patch list:\n[map[image:q name:c] map[image:r name:d]]\n doesn't match $setElementOrder list:\n[map[name:d] map[name:c]]\n",
    );
  });

  it("a patch that is not a JSON object is refused as Go's decoder refuses it", async () => {
    const res = await patch([1, 2]);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      "json: cannot unmarshal array into Go value of type map[string]interface {}",
    );
  });

  it("the patched object is validated: deleting a binding's role reference is refused", async () => {
    const crb = uniqueName("crb");
    const path = "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings";
    const created = await t.call("POST", path, {
      body: {
        metadata: { name: crb },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
      },
    });
    expect(created.status).toBe(201);
    const res = await t.call("PATCH", `${path}/${crb}?dryRun=All`, {
      rawBody: JSON.stringify({ roleRef: { $patch: "delete" } }),
      contentType: SMP,
    });
    await t.call("DELETE", `${path}/${crb}`);
    expect(res.status).toBe(422);
    expect(
      res.json.details.causes.map((c: { field: string; reason: string }) => `${c.field} ${c.reason}`).sort(),
    ).toEqual(
      [
        "roleRef FieldValueInvalid",
        "roleRef.kind FieldValueNotSupported",
        "roleRef.name FieldValueRequired",
      ].sort(),
    );
  });
});
