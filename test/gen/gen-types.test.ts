/**
 * `kubesdk gen types` on the CRD corpus of test/fixtures/crds and on a CRD the repo generates
 * itself (test/client/defined-widget.ts): the output is stable, type-checks with tsc, and its
 * definitions give back an equivalent CRD (CRD → code → defineCustomResource → CRD).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { CustomResourceDefinitionOf } from "@kubesdk/client";
import type { apiextensionsV1 } from "@kubesdk/models";
import { generateTypes } from "kubesdk/codegen";
import { beforeAll, describe, expect, it } from "vitest";
import { readManifestSources } from "../../packages/kubesdk/src/gen/sources.js";
import { widgetDefinition } from "../client/defined-widget.js";

type CRD = apiextensionsV1.CustomResourceDefinition;
const root = resolve(import.meta.dirname, "../..");
let crds: CRD[];
let code: string;
let dir: string;

beforeAll(async () => {
  const corpus = (await readManifestSources([join(root, "test/fixtures/crds")])) as CRD[];
  crds = [...corpus, widgetDefinition("widgets.kubesdk.dev").manifest()];
  // @kubesdk/client rather than the facade: tsc then reads fewer workspace sources.
  code = generateTypes(crds, { source: "test/fixtures/crds", importFrom: "@kubesdk/client" });
  // Inside the repository, so "kubesdk" and "typebox" resolve from its node_modules.
  dir = mkdtempSync(join(root, "node_modules/.cache-kubesdk-gen-"));
  writeFileSync(join(dir, "generated.ts"), code);
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      extends: join(root, "tsconfig.base.json"),
      compilerOptions: {
        noEmit: true,
        customConditions: ["source"],
        declaration: false,
        declarationMap: false,
      },
      files: ["generated.ts"],
    }),
  );
});

describe("kubesdk gen types", () => {
  it("writes the same code whatever order the CRDs come in", () => {
    expect(
      generateTypes([...crds].reverse(), { source: "test/fixtures/crds", importFrom: "@kubesdk/client" }),
    ).toBe(code);
  });

  it("writes descriptions as doc comments and one type per served version", () => {
    expect(code).toContain("/** How the gadget runs. */");
    expect(code).toContain("Its description spans two lines, one with a *\\/ in it.");
    for (const type of ["GadgetV1", "SprocketV1beta1", "SprocketV1", "ChainV1", "WidgetV1alpha1", "WidgetV1"])
      expect(code).toContain(`export type ${type} = CustomResourceOf<`);
  });

  it("writes code that type-checks", async () => {
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    const result = await promisify(execFile)(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")]).catch(
      (e: { stdout: string; code: number }) => e,
    );
    expect(result.stdout).toBe("");
    // tsc reads the workspace's sources: minutes on a busy machine.
  }, 540_000);

  it("gives back an equivalent CRD for each input (CRD → types → definition → CRD)", async () => {
    const generated: Record<string, unknown> = await import(join(dir, "generated.ts"));
    const definitions = Object.values(generated).filter(
      (v): v is CustomResourceDefinitionOf => typeof (v as { manifest?: unknown })?.manifest === "function",
    );
    expect(definitions.map((d) => d.name).sort()).toEqual(crds.map((c) => c.metadata?.name).sort());
    for (const original of crds) {
      const again = definitions.find((d) => d.name === original.metadata?.name)?.manifest() as CRD;
      expect(again.spec?.names).toMatchObject(original.spec?.names ?? {});
      expect(again.spec?.scope).toBe(original.spec?.scope);
      expect(again.spec?.versions?.map(comparable)).toEqual(original.spec?.versions?.map(comparable));
    }
  });
});

/** A version with its schema normalized: required sorted, bare apiVersion/kind/metadata left out. */
function comparable(version: apiextensionsV1.CustomResourceDefinitionVersion) {
  const schema = normalized(version.schema?.openAPIV3Schema) as Record<string, Record<string, unknown>>;
  for (const name of ["apiVersion", "kind", "metadata"])
    if (Object.keys(schema.properties?.[name] ?? {}).length === 1) delete schema.properties?.[name];
  return { ...version, schema: { openAPIV3Schema: schema } };
}

function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalized);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "required" && Array.isArray(v)) out[k] = [...v].sort();
    else if (k === "properties" && Object.keys(v as object).length === 0) continue;
    else out[k] = normalized(v);
  }
  return out;
}
