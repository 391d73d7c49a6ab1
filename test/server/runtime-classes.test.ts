/**
 * RuntimeClasses (node.k8s.io/v1), the kind added as one strategy file
 * (packages/server/src/registry/node/runtimeclasses.ts): listed in discovery, created, read,
 * listed, updated and deleted like any cluster-scoped kind, and validated as kube-apiserver 1.37
 * validates them — a DNS-label handler that never changes, the overhead as a resource list, the
 * scheduling node selector as labels; its tolerations are checked with a pod's in
 * validation-pod-scheduling.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { checkRow, createThenPut, DNS_LABEL, LABEL_VALUE, type SpecRow } from "./spec-validation-cases.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const RC = "/apis/node.k8s.io/v1/runtimeclasses";

describe("RuntimeClass discovery", () => {
  it("lists runtimeclasses in node.k8s.io/v1 as a cluster-scoped kind with every verb", async () => {
    const res = await t.call("GET", "/apis/node.k8s.io/v1");
    expect(res.status).toBe(200);
    const rc = (
      res.json.resources as { name: string; namespaced: boolean; kind: string; verbs: string[] }[]
    ).find((r) => r.name === "runtimeclasses");
    expect(rc?.kind).toBe("RuntimeClass");
    expect(rc?.namespaced).toBe(false);
    expect([...(rc?.verbs ?? [])].sort()).toEqual(
      ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"].sort(),
    );
  });
});

describe("RuntimeClass CRUD", () => {
  it("creates, reads, lists, updates and deletes a RuntimeClass", async () => {
    const name = uniqueName("rc");
    const body = { metadata: { name }, handler: "runc", scheduling: { nodeSelector: { sandbox: "true" } } };
    const created = await t.call("POST", RC, { body });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json.handler).toBe("runc");

    const got = await t.call("GET", `${RC}/${name}`);
    expect(got.json.scheduling).toEqual({ nodeSelector: { sandbox: "true" } });
    const listed = await t.call("GET", RC);
    expect((listed.json.items as { metadata: { name: string } }[]).map((i) => i.metadata.name)).toContain(
      name,
    );

    const updated = await t.call("PUT", `${RC}/${name}`, {
      body: { ...got.json, overhead: { podFixed: { cpu: "250m", memory: "64Mi" } } },
    });
    expect(updated.status, JSON.stringify(updated.json)).toBe(200);
    expect(updated.json.overhead).toEqual({ podFixed: { cpu: "250m", memory: "64Mi" } });

    expect((await t.call("DELETE", `${RC}/${name}`)).status).toBe(200);
    expect((await t.call("GET", `${RC}/${name}`)).status).toBe(404);
  });

  it("refuses to change the handler of a RuntimeClass (422, field is immutable)", async () => {
    const res = await createThenPut(
      t,
      RC,
      { metadata: { name: uniqueName("rc") }, handler: "runc" },
      (c) => ({
        ...c,
        handler: "kata",
      }),
    );
    expect(res.status).toBe(422);
    expect(res.causes).toEqual(["handler | FieldValueInvalid | Invalid value: null: field is immutable"]);
  });
});

const ROWS: SpecRow[] = [
  {
    name: "a DNS-label handler",
    path: RC,
    body: { metadata: { name: "ok" }, handler: "kata-fc" },
    causes: [],
  },
  {
    name: "a handler that is no DNS label",
    path: RC,
    body: { metadata: { name: "bad" }, handler: "Kata_FC" },
    causes: [`handler | FieldValueInvalid | Invalid value: "Kata_FC": ${DNS_LABEL}`],
  },
  {
    name: "a node selector value that is no label value",
    path: RC,
    body: { metadata: { name: "bad" }, handler: "runc", scheduling: { nodeSelector: { zone: "a b" } } },
    causes: [`scheduling.nodeSelector | FieldValueInvalid | Invalid value: "a b": ${LABEL_VALUE}`],
  },
  {
    name: "a negative pod overhead",
    path: RC,
    body: { metadata: { name: "bad" }, handler: "runc", overhead: { podFixed: { cpu: "-1" } } },
    causes: [
      'overhead.limits[cpu] | FieldValueInvalid | Invalid value: "-1": must be greater than or equal to 0',
    ],
  },
];

describe("RuntimeClass validation", () => {
  for (const row of ROWS) it(`answers ${row.name} as kube-apiserver does`, () => checkRow(t, row));
});
