/**
 * Vectors written by the upstream Go code (go/vectors.go): sparse kubectl-style objects,
 * zero values (pointers set to zero among them), lists, Status, a CRD and watch frames, which the
 * fully-populated k8s.io/api fixtures never exercise. Both directions must match Go exactly: the
 * JSON (values and key order) and the protobuf bytes.
 */
import { readFileSync } from "node:fs";
import {
  decodeObject,
  decodeWatchEvent,
  encodeObject,
  encodeWatchEvent,
  type WireWatchEventType,
} from "@kubesdk/models";
import { describe, expect, test } from "vitest";

interface Vectors {
  objects: { name: string; json: Record<string, unknown>; pb: string }[];
  watchFrames: { name: string; type: WireWatchEventType; object: Record<string, unknown>; frame: string }[];
}

const vectors = JSON.parse(readFileSync(new URL("./go/vectors.json", import.meta.url), "utf8")) as Vectors;

/** Keys in Go's order, but apiVersion and kind first, as decodeObject puts them. */
function apiserverOrder(json: Record<string, unknown>): string {
  const { apiVersion, kind, ...rest } = json;
  return JSON.stringify(apiVersion === undefined ? rest : { apiVersion, kind, ...rest });
}

describe("Go-written objects", () => {
  test.each(vectors.objects.map((v) => [v.name, v] as const))("%s: decodes to Go's JSON", (_, vector) => {
    const decoded = decodeObject(Buffer.from(vector.pb, "base64"));
    expect(decoded).toStrictEqual(vector.json);
    // Same keys in the same order: Go struct order, inlined structs in place.
    expect(JSON.stringify(decoded)).toBe(apiserverOrder(vector.json));
  });

  test.each(vectors.objects.map((v) => [v.name, v] as const))(
    "%s: encodes to Go's bytes exactly, and back to the same JSON",
    (_, vector) => {
      const encoded = encodeObject(vector.json);
      expect(Buffer.from(encoded).toString("base64")).toBe(vector.pb);
      expect(decodeObject(encoded)).toStrictEqual(vector.json);
    },
  );

  test.each([
    ["deployment-scaled-to-zero", { spec: { replicas: 0 } }],
    ["kubectl-create-deployment-replicas-0", { spec: { replicas: 0 } }],
    [
      "pod-run-as-root",
      {
        spec: {
          automountServiceAccountToken: false,
          terminationGracePeriodSeconds: 0,
          securityContext: { runAsUser: 0, runAsGroup: 0, runAsNonRoot: false, fsGroup: 0 },
          containers: [{ securityContext: { runAsUser: 0, privileged: false } }],
        },
      },
    ],
    ["serviceaccount-no-automount", { automountServiceAccountToken: false }],
    ["job-zero-pointers", { spec: { parallelism: 0, backoffLimit: 0, suspend: false } }],
  ])("%s: pointer fields set to zero keep their value", (name, expected) => {
    const vector = vectors.objects.find((v) => v.name === name);
    expect(vector?.json).toMatchObject(expected);
    expect(decodeObject(Buffer.from(vector?.pb ?? "", "base64"))).toMatchObject(expected);
    expect(decodeObject(encodeObject(vector?.json ?? {}))).toMatchObject(expected);
  });

  test("a required list that is empty reads as Go writes it: null, but [] for a list kind's items", () => {
    const pod = vectors.objects.find((v) => v.name === "pod-labels-numeric-keys");
    const list = vectors.objects.find((v) => v.name === "pod-list-empty");
    expect(decodeObject(Buffer.from(pod?.pb ?? "", "base64"))).toMatchObject({ spec: { containers: null } });
    expect(decodeObject(Buffer.from(list?.pb ?? "", "base64"))).toMatchObject({ items: [] });
  });

  test("empty non-pointer fields on the wire: zero strings left out under omitempty, structs {}", () => {
    const namespace = vectors.objects.find((v) => v.name === "kubectl-create-namespace");
    expect(decodeObject(Buffer.from(namespace?.pb ?? "", "base64"))).toStrictEqual({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "demo" },
      spec: {},
      status: {},
    });
  });
});

describe("Go-written watch frames", () => {
  test.each(vectors.watchFrames.map((f) => [f.name, f] as const))("%s decodes", (_, frame) => {
    expect(decodeWatchEvent(Buffer.from(frame.frame, "base64"))).toStrictEqual({
      type: frame.type,
      object: frame.object,
    });
  });

  test.each(vectors.watchFrames.map((f) => [f.name, f] as const))("%s encodes to Go's bytes", (_, frame) => {
    const encoded = encodeWatchEvent({ type: frame.type, object: frame.object });
    expect(Buffer.from(encoded).toString("base64")).toBe(frame.frame);
    expect(decodeWatchEvent(encoded)).toStrictEqual({ type: frame.type, object: frame.object });
  });
});
