/**
 * Vectors written by the upstream Go code (go-vectors/main.go): sparse kubectl-style objects,
 * zero values, lists, Status, a CRD and watch frames, which the fully-populated k8s.io/api
 * fixtures never exercise.
 */
import { readFileSync } from "node:fs";
import {
  decodeObject,
  decodeWatchEvent,
  encodeObject,
  encodeWatchEvent,
  parseApiVersion,
  protoTypeFor,
  type WatchEventType,
} from "@kubesdk/models";
import { describe, expect, test } from "vitest";
import { unseal } from "./helpers.js";

interface Vectors {
  objects: { name: string; json: Record<string, unknown>; pb: string }[];
  watchFrames: { name: string; type: WatchEventType; object: Record<string, unknown>; frame: string }[];
}

const vectors = JSON.parse(
  readFileSync(new URL("./go-vectors/vectors.json", import.meta.url), "utf8"),
) as Vectors;

/**
 * Pointer fields set to zero, which decode as absent until codegen provides per-field pointer
 * facts (see src/wire/field-facts.ts). Each entry is the exact loss; anything else must match.
 */
const knownPointerZeroLosses: Record<string, Record<string, unknown>> = {
  "deployment-scaled-to-zero": { "spec.replicas": 0 },
  crd: { "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.replicas.minimum": 0 },
};

function withoutKnownLosses(name: string, json: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(json);
  for (const path of Object.keys(knownPointerZeroLosses[name] ?? {})) {
    const keys = path.replace(/\[(\d+)\]/g, ".$1").split(".");
    const last = keys.pop() as string;
    const parent = keys.reduce<Record<string, unknown>>(
      (node, key) => node[key] as Record<string, unknown>,
      copy,
    );
    expect(parent[last], `${name}: ${path}`).toBe(knownPointerZeroLosses[name]?.[path]);
    delete parent[last];
  }
  return copy;
}

/** Drops zero values and empty messages, which Go writes for non-pointer fields and we leave out. */
function pruned(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pruned);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const kept = pruned(child);
    const empty = typeof kept === "object" && kept !== null && Object.keys(kept).length === 0;
    if (!empty && kept !== "" && kept !== "0" && kept !== 0 && kept !== false && kept !== null)
      out[key] = kept;
  }
  return out;
}

/** The protobuf message inside an enveloped object, as protobufjs reads it, zero values pruned. */
function messageOf(bytes: Uint8Array): unknown {
  const envelope = unseal(bytes);
  const gvk = { ...parseApiVersion(envelope.apiVersion), kind: envelope.kind };
  const type = protoTypeFor(gvk);
  return pruned(type.toObject(type.decode(envelope.raw), { longs: String, bytes: String }));
}

describe("Go-written objects", () => {
  test.each(vectors.objects.map((v) => [v.name, v] as const))("%s: decodes to Go's JSON", (name, vector) => {
    const decoded = decodeObject(Buffer.from(vector.pb, "base64"));
    expect(decoded).toStrictEqual(withoutKnownLosses(name, vector.json));
  });

  test.each(vectors.objects.map((v) => [v.name, v] as const))(
    "%s: encodes to a message equal to Go's, and back to the same JSON",
    (name, vector) => {
      const encoded = encodeObject(vector.json);
      // Go also writes its empty non-pointer fields, so the bytes differ; the messages do not.
      expect(messageOf(encoded)).toStrictEqual(messageOf(Buffer.from(vector.pb, "base64")));
      expect(decodeObject(encoded)).toStrictEqual(withoutKnownLosses(name, vector.json));
    },
  );

  test("a required list that is empty reads as Go writes it: null, but [] for a list kind's items", () => {
    const pod = vectors.objects.find((v) => v.name === "pod-labels-numeric-keys");
    const list = vectors.objects.find((v) => v.name === "pod-list-empty");
    expect(decodeObject(Buffer.from(pod?.pb ?? "", "base64"))).toMatchObject({ spec: { containers: null } });
    expect(decodeObject(Buffer.from(list?.pb ?? "", "base64"))).toMatchObject({ items: [] });
  });

  test("empty non-pointer fields Go always writes are left out, as its JSON does", () => {
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

  test.each(vectors.watchFrames.map((f) => [f.name, f] as const))("%s round-trips", (_, frame) => {
    const encoded = encodeWatchEvent({ type: frame.type, object: frame.object });
    expect(decodeWatchEvent(encoded)).toStrictEqual({ type: frame.type, object: frame.object });
  });
});
