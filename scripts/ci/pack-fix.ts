/**
 * `pnpm pack:fix`: brings every publishable package's manifest to the shape docs/packaging.md asks
 * for (main/types, exports with the workspace-only `source` condition, publishConfig.exports without
 * it, files, sideEffects, engines, license) and copies the root LICENSE into packages that lack one.
 * Idempotent; it leaves other fields alone and never writes a README (that needs a person).
 * Review the diff: `sideEffects: false` is only added when the field is absent.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

type Json = Record<string, unknown>;

const defaultExports = {
  ".": { source: "./src/index.ts", types: "./dist/index.d.ts", default: "./dist/index.js" },
  "./package.json": "./package.json",
};

/** The exports as published: the same map without the workspace-only `source` condition. */
function withoutSource(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "source")
      .map(([key, inner]) => [key, withoutSource(inner)]),
  );
}

/** Sets the packaging fields where the first of them stood (or at the end); other keys keep their order. */
function fixManifest(pkg: Json): Json {
  const exports = pkg.exports ?? defaultExports;
  const files = Array.isArray(pkg.files) ? (pkg.files as string[]) : [];
  const fields: Json = {
    type: "module",
    license: "Apache-2.0",
    engines: pkg.engines ?? { node: ">=20.18" },
    sideEffects: pkg.sideEffects ?? false,
    main: "./dist/index.js",
    types: "./dist/index.d.ts",
    exports,
    publishConfig: { ...(pkg.publishConfig as Json | undefined), exports: withoutSource(exports) },
    files: [...new Set(["dist", "!dist/.tsbuildinfo", "src", ...files])],
  };
  const out: Json = {};
  let placed = false;
  for (const [key, value] of Object.entries(pkg)) {
    if (!(key in fields)) out[key] = value;
    else if (!placed) {
      Object.assign(out, fields);
      placed = true;
    }
  }
  return placed ? out : { ...out, ...fields };
}

for (const name of readdirSync(join(root, "packages"))) {
  const dir = join(root, "packages", name);
  const file = join(dir, "package.json");
  if (!existsSync(file)) continue;
  const pkg = JSON.parse(readFileSync(file, "utf8")) as Json;
  if (pkg.private === true) continue;
  const next = `${JSON.stringify(fixManifest(pkg), null, 2)}\n`;
  if (next !== readFileSync(file, "utf8")) {
    writeFileSync(file, next);
    console.log(`updated ${name}/package.json`);
  }
  if (!existsSync(join(dir, "LICENSE"))) {
    copyFileSync(join(root, "LICENSE"), join(dir, "LICENSE"));
    console.log(`added ${name}/LICENSE`);
  }
  if (!existsSync(join(dir, "README.md")))
    console.log(`${name} has no README.md: write one (see docs/packaging.md)`);
}
