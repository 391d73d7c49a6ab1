/**
 * A create's managedFields are built from one walk straight into a FieldSet (fieldSetOf and
 * recordCreate), where updates go through leaf paths (leafFields and recordUpdate). Both must name
 * the same fields: the same objects through both ways give the same entries and sets.
 */
import { FieldSet, schemaFor, type TypeNode } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import { runAtOnce } from "../src/api/steps.js";
import {
  type ManagedFieldsEntry,
  recordCreateSteps,
  recordUpdate,
} from "../src/fieldmanager/managed-fields.js";
import { type FieldScope, fieldSetOf, leafFields, PATH_SEP } from "../src/fieldmanager/object-fields.js";

const POD = schemaFor({ group: "", version: "v1", kind: "Pod" });
const DEPLOYMENT = schemaFor({ group: "apps", version: "v1", kind: "Deployment" });
const CONFIGMAP = schemaFor({ group: "", version: "v1", kind: "ConfigMap" });

const container = (name: string) => ({
  name,
  image: "nginx",
  ports: [
    { containerPort: 80, protocol: "TCP" },
    { containerPort: 443, protocol: "TCP" },
  ],
  env: [
    { name: "A", value: "1" },
    { name: "B", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
  ],
  resources: { limits: { cpu: "1" }, requests: {} },
  args: ["--x", "--y"],
});

const objects: ReadonlyArray<[string, Record<string, unknown>, TypeNode | undefined]> = [
  [
    "a ConfigMap",
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c", namespace: "n", uid: "u", labels: { a: "1" }, annotations: {} },
      data: { k: "v", e: "" },
      binaryData: {},
    },
    CONFIGMAP,
  ],
  [
    "a Pod (map lists, sets, atomic lists, structs, status)",
    {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", finalizers: ["a/b", "c/d"], ownerReferences: [{ uid: "o", name: "x" }] },
      spec: { containers: [container("a"), container("b")], tolerations: [{ key: "k" }], nodeSelector: {} },
      status: { phase: "Pending", conditions: [{ type: "Ready", status: "False" }] },
    },
    POD,
  ],
  [
    "a Deployment",
    {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d", labels: { app: "web" } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: "web" } },
        template: { metadata: { labels: { app: "web" } }, spec: { containers: [container("web")] } },
      },
    },
    DEPLOYMENT,
  ],
  [
    "an untyped object (maps granular, lists atomic)",
    {
      apiVersion: "x/v1",
      kind: "X",
      metadata: { name: "x" },
      spec: { a: { b: [1, 2], c: {} }, d: [{ e: 1 }] },
    },
    undefined,
  ],
];

const setOfLeaves = (m: Map<string, string>) =>
  FieldSet.fromPaths([...m.keys()].map((k) => k.split(PATH_SEP)));

const other: ManagedFieldsEntry = {
  manager: "other",
  operation: "Update",
  apiVersion: "v1",
  time: "2025-01-01T00:00:00Z",
  fieldsType: "FieldsV1",
  fieldsV1: { "f:metadata": { "f:labels": { "f:a": {} }, "f:gone": {} }, "f:data": { "f:k": {} } },
};

describe("a create's fields from one walk", () => {
  for (const [what, obj, schema] of objects)
    for (const scope of ["all", "main", "status"] as FieldScope[])
      it(`name what the leaf paths name: ${what}, scope ${scope}`, () => {
        for (const presence of ["no-structs", "zero", "none", "all"] as const)
          expect(fieldSetOf(obj, schema, scope, presence).toFieldsV1()).toEqual(
            setOfLeaves(leafFields(obj, schema, scope, presence, false)).toFieldsV1(),
          );
        const record = {
          manager: "m",
          apiVersion: "v1",
          subresource: undefined,
          time: "2026-01-01T00:00:00Z",
        };
        for (const entries of [[], [other]]) {
          const created = runAtOnce(
            recordCreateSteps({ ...record, entries, fields: fieldSetOf(obj, schema, scope, "no-structs") }),
          );
          const updated = recordUpdate({
            ...record,
            entries,
            oldLeaves: new Map(),
            newLeaves: leafFields(obj, schema, scope, "no-structs", false),
          });
          expect(created).toEqual(updated);
        }
      });
});
