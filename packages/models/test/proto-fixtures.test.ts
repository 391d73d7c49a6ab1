/**
 * Every protobuf fixture that k8s.io/api ships (testdata/HEAD/<group>.<version>.<Kind>.pb, located
 * through the codegen's upstream helper) must decode with the generated descriptors, and
 * re-encoding the decoded message must give back the exact upstream bytes, which shows that no
 * field is missing from the descriptors (protobufjs would otherwise drop it).
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  apiVersionOf,
  type GroupVersionKind,
  protoMagic,
  protoMessageNames,
  protoType,
  protoTypeFor,
} from "@kubesdk/models";
import { beforeAll, describe, expect, test } from "vitest";
import { upstreamModuleDir } from "../../../scripts/codegen/upstream.js";

interface Fixture {
  readonly file: string;
  readonly gvk: GroupVersionKind;
  readonly bytes: Uint8Array;
}

/** "apps.v1.Deployment.pb" → apps/v1 Deployment; "core.v1.Pod.pb" → the core group. */
function gvkOf(file: string): GroupVersionKind {
  const parts = file.replace(/\.pb$/, "").split(".");
  const kind = parts.pop() as string;
  const version = parts.pop() as string;
  const group = parts.join(".");
  return { group: group === "core" ? "" : group, version, kind };
}

let fixtures: Fixture[] = [];

beforeAll(async () => {
  const dir = join(await upstreamModuleDir("k8s.io/api"), "testdata", "HEAD");
  const files = (await readdir(dir)).filter((f) => f.endsWith(".pb")).sort();
  fixtures = await Promise.all(
    files.map(async (file) => ({
      file,
      gvk: gvkOf(file),
      bytes: new Uint8Array(await readFile(join(dir, file))),
    })),
  );
}, 120_000);

describe("k8s.io/api protobuf fixtures", () => {
  test("there are fixtures for well over a hundred kinds", () => {
    expect(fixtures.length).toBeGreaterThan(150);
    console.info(`protobuf fixtures checked: ${fixtures.length}`);
  });

  test("every fixture decodes, and re-encodes to the same bytes", () => {
    const unknown = protoType(protoMessageNames.unknown);
    const failures: string[] = [];
    for (const { file, gvk, bytes } of fixtures) {
      try {
        expect(bytes.subarray(0, 4), `${file}: magic`).toEqual(protoMagic);
        const envelope = unknown.toObject(unknown.decode(bytes.subarray(4)), { bytes: Array }) as {
          typeMeta?: { apiVersion?: string; kind?: string };
          raw?: number[];
        };
        // Upstream writes WatchEvent without TypeMeta (its JSON twin has no apiVersion/kind either).
        const expected =
          gvk.kind === "WatchEvent"
            ? { apiVersion: "", kind: "" }
            : { apiVersion: apiVersionOf(gvk), kind: gvk.kind };
        expect(envelope.typeMeta, `${file}: envelope TypeMeta`).toEqual(expected);
        const raw = Uint8Array.from(envelope.raw ?? []);
        const type = protoTypeFor(gvk);
        const message = type.decode(raw);
        const again = type.encode(message).finish();
        expect(Buffer.from(again).equals(Buffer.from(raw)), `${file}: re-encoded bytes differ`).toBe(true);
      } catch (error) {
        failures.push(`${file}: ${(error as Error).message.split("\n")[0]}`);
      }
    }
    expect(failures).toEqual([]);
  });

  test("a decoded Deployment fixture has the values of its JSON twin", async () => {
    const dir = join(await upstreamModuleDir("k8s.io/api"), "testdata", "HEAD");
    const json = JSON.parse(await readFile(join(dir, "apps.v1.Deployment.json"), "utf8"));
    const fixture = fixtures.find((f) => f.file === "apps.v1.Deployment.pb") as Fixture;
    const unknown = protoType(protoMessageNames.unknown);
    const envelope = unknown.decode(fixture.bytes.subarray(4)) as unknown as { raw: Uint8Array };
    const type = protoTypeFor({ group: "apps", version: "v1", kind: "Deployment" });
    const decoded = type.toObject(type.decode(envelope.raw), { longs: Number }) as {
      metadata: { name: string; uid: string; labels: Record<string, string> };
      spec: { replicas: number; selector: { matchLabels: Record<string, string> } };
    };
    expect(decoded.metadata.name).toBe(json.metadata.name);
    expect(decoded.metadata.uid).toBe(json.metadata.uid);
    expect(decoded.metadata.labels).toEqual(json.metadata.labels);
    expect(decoded.spec.replicas).toBe(json.spec.replicas);
    expect(decoded.spec.selector.matchLabels).toEqual(json.spec.selector.matchLabels);
  });

  test("kinds without a protobuf form are rejected with a typed error", () => {
    expect(() => protoTypeFor({ group: "example.com", version: "v1", kind: "Widget" })).toThrow(
      expect.objectContaining({ code: "UNKNOWN_PROTO_TYPE" }),
    );
    expect(() => protoType("k8s.io.api.apps.v1.NoSuchMessage")).toThrow(/NoSuchMessage/);
  });
});
