/**
 * Every protobuf message has what the codec needs: Go field facts that match its descriptor, or a
 * special codec for a Go type with its own JSON. Codegen checks the facts against the
 * descriptors; this checks the codec's own list of special types against both.
 */
import { protoType } from "@kubesdk/models";
import { describe, expect, test } from "vitest";
import { protoMessagesJson } from "../../src/generated/proto.js";
import { goFieldFactsOf } from "../../src/wire/field-facts.js";
import { type FieldPlan, planOf } from "../../src/wire/plan.js";

const messageNames = Object.keys(JSON.parse(protoMessagesJson) as Record<string, unknown>);
const unreachable = [
  "k8s.io.apimachinery.pkg.api.resource.QuantityValue",
  "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersion",
  "k8s.io.apimachinery.pkg.runtime.Unknown",
];

describe("message plans", () => {
  test("every message has Go facts or a special codec, and its plan lists every descriptor field", () => {
    const withoutPlan: string[] = [];
    let special = 0;
    for (const name of messageNames) {
      const type = protoType(name);
      let fields: readonly FieldPlan[];
      try {
        const plan = planOf(type);
        if (plan.special) special++;
        fields = plan.fields;
      } catch {
        withoutPlan.push(name);
        continue;
      }
      expect(fields.map((f) => f.id).sort((a, b) => a - b)).toEqual(
        type.fieldsArray.map((f) => f.id).sort((a, b) => a - b),
      );
    }
    // Go types with their own JSON that no field and no kind uses, so the codec never meets them
    // (Unknown is the envelope, which envelope.ts reads directly).
    expect(withoutPlan).toEqual(unreachable);
    const referenced = new Set(
      messageNames.flatMap((name) =>
        protoType(name).fieldsArray.map((f) => f.resolve().resolvedType?.fullName),
      ),
    );
    for (const name of unreachable) expect(referenced.has(`.${name}`), name).toBe(false);
    // Time, MicroTime, Duration, IntOrString, Quantity, FieldsV1, RawExtension, the apiextensions
    // JSON types and the wrapped string lists (ExtraValue, Verbs, ...).
    expect(special).toBeGreaterThan(15);
  });

  test("fields follow the Go struct, with the JSON names and facts of its tags", () => {
    const spec = planOf(protoType("k8s.io.api.apps.v1.DeploymentSpec"));
    expect(spec.fields.slice(0, 4).map((f) => f.json)).toEqual([
      "replicas",
      "selector",
      "template",
      "strategy",
    ]);
    expect(spec.field("replicas")?.facts).toEqual({
      json: "replicas",
      pointer: true,
      omitEmpty: true,
      omitZero: false,
      kind: "scalar",
    });
    expect(planOf(protoType("k8s.io.api.core.v1.Volume")).field("volumeSource")).toMatchObject({
      json: "",
      inline: true,
    });
    const schema = planOf(
      protoType("k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps"),
    );
    expect(schema.field("ref")?.json).toBe("$ref");
    expect(schema.field("xKubernetesListType")?.json).toBe("x-kubernetes-list-type");
    expect(planOf(protoType("k8s.io.api.authentication.v1.BoundObjectReference")).field("uID")?.json).toBe(
      "uid",
    );
    const meta = goFieldFactsOf("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    expect(meta?.get("creationTimestamp")).toMatchObject({ omitEmpty: true, omitZero: true, kind: "struct" });
    expect(goFieldFactsOf("k8s.io.apimachinery.pkg.apis.meta.v1.Time")).toBeUndefined();
  });
});
