/** scripts/api: what the API reports list for a small fixture workspace. */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { packageEntries, readSurfaces } from "../../scripts/api/surface.js";

const root = resolve(import.meta.dirname, "..", "..", ".cache", "api-fixture");

function write(path: string, text: string): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
}

beforeAll(() => {
  rmSync(root, { recursive: true, force: true });
  write("tsconfig.json", JSON.stringify({ compilerOptions: { strict: true, module: "NodeNext" } }));
  write(
    "packages/a/package.json",
    JSON.stringify({
      name: "@x/a",
      exports: { ".": { source: "./src/index.ts" }, "./internal": { source: "./src/internal.ts" } },
    }),
  );
  write(
    "packages/a/src/index.ts",
    [
      "export interface Options { readonly limit?: number }",
      "export class Widget { #secret = 1; private hidden = 2; constructor(readonly name: string) {}",
      "  get size(): number { return this.#secret + this.hidden; } grow(by: number): Widget { return this; } }",
      "export function make(name: string, options?: Options): Widget { return new Widget(name); }",
      "export const LIMIT = 5;",
      "export type Status = { code: number };",
    ].join("\n"),
  );
  write("packages/a/src/internal.ts", "export const helper = (): void => {};\n");
  write(
    "packages/b/package.json",
    JSON.stringify({ name: "@x/b", exports: { ".": { source: "./src/index.ts" } } }),
  );
  write(
    "packages/b/src/index.ts",
    "export type Status = { phase: string };\nexport type { Options } from '../../a/src/index.js';\n",
  );
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("API surface", () => {
  test("every entry of every package's exports map", () => {
    expect(packageEntries(root).map((e) => e.specifier)).toEqual(["@x/a", "@x/a/internal", "@x/b"]);
  });

  test("each exported name with its signature; private members left out", () => {
    const [a] = readSurfaces(root, packageEntries(root));
    const text = new Map(a?.names.map((n) => [n.name, n.text]));
    expect([...text.keys()]).toEqual(["LIMIT", "Options", "Status", "Widget", "make"]);
    expect(text.get("LIMIT")).toBe("const LIMIT: 5");
    expect(text.get("make")).toBe("function make(name: string, options?: Options | undefined): Widget");
    expect(text.get("Widget")).toBe(
      [
        "class Widget {",
        "  constructor(name: string);",
        "  readonly name: string;",
        "  readonly size: number;",
        "  grow(by: number): Widget;",
        "}",
      ].join("\n"),
    );
  });

  test("a re-export is the same name; a second declaration is a different meaning", () => {
    const surfaces = readSurfaces(root, packageEntries(root));
    const origin = (entry: number, name: string) =>
      surfaces[entry]?.names.find((n) => n.name === name)?.origin;
    expect(origin(2, "Options")).toBe(origin(0, "Options"));
    expect(origin(2, "Status")).not.toBe(origin(0, "Status"));
  });
});
