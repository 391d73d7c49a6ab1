/**
 * A throwaway user project outside the workspace: the packed tarballs installed with plain npm, the
 * programs of test/pack type-checked under each moduleResolution with the oldest supported and the
 * repository's TypeScript, then run with Node (ESM, require(esm), a bundle, and with the "source"
 * condition set, which a published package must not react to).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bundleSizeStep, copyBundlePrograms, loadEsbuild } from "./pack-bundle-size.js";

/** The oldest TypeScript the packages support (stated in every README and in docs/packaging.md). */
export const MIN_TYPESCRIPT = "5.0.4";

// node10 reads `main`/`types`; like most such projects it needs esModuleInterop for the default import
// of protobufjs (a CommonJS module) in @kubesdk/models' declarations.
const RESOLUTIONS: Record<string, Record<string, string | boolean>> = {
  node16: { module: "node16", moduleResolution: "node16" },
  nodenext: { module: "nodenext", moduleResolution: "nodenext" },
  bundler: { module: "esnext", moduleResolution: "bundler" },
  node10: { module: "esnext", moduleResolution: "node10", esModuleInterop: true },
};

export interface Step {
  readonly name: string;
  readonly ok: boolean;
  readonly ms: number;
  readonly output: string;
}

export function run(name: string, cmd: string, args: readonly string[], cwd: string): Step {
  const t0 = performance.now();
  const res = spawnSync(cmd, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_yes: "true" },
  });
  const output = `${res.stdout ?? ""}${res.stderr ?? ""}${res.error ? String(res.error) : ""}`.trim();
  return { name, ok: res.status === 0, ms: performance.now() - t0, output };
}

/** Node versions where require() of an ES module works without a flag (20.19+, 22.12+, 23+). */
export function requireEsmUnflagged(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major >= 23 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
}

export interface ProjectSetup {
  readonly dir: string;
  readonly tarballs: readonly string[];
  readonly packageNames: readonly string[];
  /** Every entry point: package names and their subpaths (`kubesdk/runtime`). */
  readonly entrySpecifiers: readonly string[];
  readonly programsDir: string;
  readonly typescript: string;
  readonly typesNode: string;
  /** The @kubernetes/client-node version the bundle-size comparison installs. */
  readonly clientNode: string;
}

export function createProject(setup: ProjectSetup): Step {
  const src = join(setup.dir, "src");
  mkdirSync(src, { recursive: true });
  writeFileSync(
    join(setup.dir, "package.json"),
    `${JSON.stringify({ name: "kubesdk-pack-check", private: true, type: "module" }, null, 2)}\n`,
  );
  for (const file of readdirSync(setup.programsDir)) {
    if (file.endsWith(".ts")) copyFileSync(join(setup.programsDir, file), join(src, file));
  }
  copyBundlePrograms(setup.programsDir, setup.dir);
  // Every entry point of every published package imported whole, so new packages and subpaths are
  // covered under each moduleResolution without a new program.
  const lines = setup.entrySpecifiers.map((name, i) => `import * as p${i} from "${name}";`);
  lines.push('import { typed } from "./typing.js";');
  lines.push(`export const modules = [${setup.entrySpecifiers.map((_, i) => `typed(p${i})`).join(", ")}];`);
  writeFileSync(join(src, "imports.ts"), `${lines.join("\n")}\n`);
  for (const [mode, options] of Object.entries(RESOLUTIONS)) {
    const compilerOptions = {
      ...options,
      target: "ES2022",
      lib: ["ES2022"],
      types: ["node"],
      strict: true,
      skipLibCheck: false,
      noEmit: true,
    };
    writeFileSync(
      join(setup.dir, `tsconfig.${mode}.json`),
      JSON.stringify({ compilerOptions, include: ["src"] }),
    );
  }
  writeFileSync(
    join(setup.dir, "tsconfig.emit.json"),
    JSON.stringify({
      extends: "./tsconfig.nodenext.json",
      compilerOptions: { noEmit: false, outDir: "out" },
    }),
  );
  return run(
    "npm install (tarballs + registry dependencies)",
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      ...setup.tarballs,
      `typescript@${setup.typescript}`,
      `typescript-min@npm:typescript@${MIN_TYPESCRIPT}`,
      `@types/node@${setup.typesNode}`,
      `@kubernetes/client-node@${setup.clientNode}`,
    ],
    setup.dir,
  );
}

export function typeCheckSteps(dir: string, typescript: string): Step[] {
  const steps: Step[] = [];
  for (const [bin, version] of [
    ["typescript", typescript],
    ["typescript-min", MIN_TYPESCRIPT],
  ] as const) {
    const tsc = join(dir, "node_modules", bin, "bin", "tsc");
    for (const mode of Object.keys(RESOLUTIONS)) {
      steps.push(
        run(
          `tsc ${version}, moduleResolution ${mode}`,
          process.execPath,
          [tsc, "-p", `tsconfig.${mode}.json`],
          dir,
        ),
      );
    }
  }
  return steps;
}

async function bundle(dir: string): Promise<Step> {
  const t0 = performance.now();
  try {
    const esbuild = await loadEsbuild();
    await esbuild.build({
      absWorkingDir: dir,
      entryPoints: ["src/e2e.ts"],
      outfile: "bundle/e2e.mjs",
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "silent",
      // CommonJS dependencies inside an ES bundle need a require of their own.
      banner: {
        js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
      },
    });
    return { name: "esbuild bundle of e2e.ts", ok: true, ms: performance.now() - t0, output: "" };
  } catch (error) {
    return { name: "esbuild bundle of e2e.ts", ok: false, ms: performance.now() - t0, output: String(error) };
  }
}

export async function runtimeSteps(
  dir: string,
  packageNames: readonly string[],
  entrySpecifiers: readonly string[],
): Promise<Step[]> {
  // Every entry point loads; a package's root must export something (a subpath may be types only).
  const names = JSON.stringify(entrySpecifiers);
  const roots = JSON.stringify(packageNames);
  const empty = `if (${roots}.includes(n) && Object.keys(m).length === 0) throw new Error(n + ": no exports");`;
  const importAll = `for (const n of ${names}) { const m = await import(n); ${empty} }`;
  const requireAll = `for (const n of ${names}) { const m = require(n); ${empty} }`;
  const node = process.execPath;
  const requireFlags = requireEsmUnflagged() ? [] : ["--experimental-require-module"];
  const steps = [
    run(
      "tsc emit (nodenext)",
      node,
      [join(dir, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.emit.json"],
      dir,
    ),
    run("node: import() of every entry point", node, ["--input-type=module", "-e", importAll], dir),
    run(
      "node --conditions=source: import() of every entry point",
      node,
      ["--conditions=source", "--input-type=module", "-e", importAll],
      dir,
    ),
    run(
      `node: require() of every entry point${requireFlags.length ? " (flagged on this Node)" : ""}`,
      node,
      [...requireFlags, "-e", requireAll],
      dir,
    ),
  ];
  steps.push(run("node out/e2e.js (server, client, watch, apply, informer)", node, ["out/e2e.js"], dir));
  const bundled = await bundle(dir);
  steps.push(bundled);
  if (bundled.ok) steps.push(run("node bundle/e2e.mjs", node, ["bundle/e2e.mjs"], dir));
  steps.push(await bundleSizeStep(dir));
  return steps;
}
