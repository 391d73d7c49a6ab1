/**
 * The matched JSON/protobuf fixtures k8s.io/api ships for every built-in kind
 * (testdata/HEAD/<group>.<version>.<Kind>.{json,pb}) at the pinned release, located through the
 * codegen's upstream helper (never committed here).
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { GroupVersionKind } from "@kubesdk/models";
import { upstreamModuleDir } from "../../../../scripts/codegen/upstream.js";

export interface FixturePair {
  /** e.g. "apps.v1.Deployment" */
  readonly name: string;
  readonly gvk: GroupVersionKind;
  readonly pb: Uint8Array;
  readonly jsonText: string;
  readonly json: Record<string, unknown>;
}

/** "apps.v1.Deployment" → apps/v1 Deployment; "core.v1.Pod" → the core group. */
export function gvkOfFixture(name: string): GroupVersionKind {
  const parts = name.split(".");
  const kind = parts.pop() as string;
  const version = parts.pop() as string;
  const group = parts.join(".");
  return { group: group === "core" ? "" : group, version, kind };
}

export async function loadFixturePairs(): Promise<FixturePair[]> {
  const dir = join(await upstreamModuleDir("k8s.io/api"), "testdata", "HEAD");
  const files = await readdir(dir);
  const names = files
    .filter((f) => f.endsWith(".pb") && files.includes(f.replace(/\.pb$/, ".json")))
    .map((f) => f.replace(/\.pb$/, ""))
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const [pb, jsonText] = await Promise.all([
        readFile(join(dir, `${name}.pb`)),
        readFile(join(dir, `${name}.json`), "utf8"),
      ]);
      return { name, gvk: gvkOfFixture(name), pb: new Uint8Array(pb), jsonText, json: JSON.parse(jsonText) };
    }),
  );
}
