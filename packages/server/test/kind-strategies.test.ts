/**
 * A built-in kind's behaviour is one strategy file, registry/<group>/<resource>.ts, exporting
 * `export const <name>: KindStrategy = …`; registry/kinds.generated.ts lists them (written by
 * `pnpm gen:kinds`, checked fresh by `pnpm check:layers`). This test is what makes a strategy the
 * list misses fail: every strategy exported from those files is registered, under the group and
 * resource its file names.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { KIND_STRATEGIES } from "../src/registry/kinds.js";

const REGISTRY = join(dirname(fileURLToPath(import.meta.url)), "../src/registry");

/** Exports shaped like a KindStrategy: a group and a resource naming the file they come from. */
async function strategiesIn(folder: string, file: string): Promise<{ group: string; resource: string }[]> {
  const module = (await import(pathToFileURL(join(REGISTRY, folder, file)).href)) as Record<string, unknown>;
  return Object.values(module).filter(
    (v): v is { group: string; resource: string } =>
      typeof v === "object" &&
      v !== null &&
      typeof (v as { group?: unknown }).group === "string" &&
      (v as { resource?: unknown }).resource === file.replace(/\.ts$/, ""),
  );
}

describe("kind strategies", () => {
  it("registers every strategy file of registry/<group>/ in registry/kinds.generated.ts", async () => {
    const folders = readdirSync(REGISTRY, { withFileTypes: true }).filter((d) => d.isDirectory());
    const found: { group: string; resource: string }[] = [];
    for (const folder of folders)
      for (const file of readdirSync(join(REGISTRY, folder.name)).filter((f) => f.endsWith(".ts")))
        found.push(...(await strategiesIn(folder.name, file)));
    expect(found.length).toBeGreaterThan(60);
    const registered = new Set(KIND_STRATEGIES);
    expect(found.filter((s) => !registered.has(s as never)).map((s) => `${s.group}/${s.resource}`)).toEqual(
      [],
    );
  });
});
