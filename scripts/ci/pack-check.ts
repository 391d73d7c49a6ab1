/**
 * `pnpm pack:check`: installs the packages the way a user would. Builds, packs every non-private
 * package under packages/ with `pnpm pack`, checks the rules of docs/packaging.md on each manifest
 * and tarball, installs the tarballs with npm into a project outside the workspace, type-checks the
 * programs of test/pack under every moduleResolution with the oldest supported and the repository's
 * TypeScript, and runs them against the embedded server. Prints tarball sizes; exits 1 on a failure.
 * KUBESDK_PACK_KEEP=1 keeps the temporary directory.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createProject,
  MIN_TYPESCRIPT,
  run,
  runtimeSteps,
  type Step,
  typeCheckSteps,
} from "./pack-project.js";
import { checkManifest, checkTarball, type Manifest, treeSize } from "./pack-rules.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

interface Packed {
  readonly name: string;
  /** Import specifiers of the package's entry points: its name and each subpath export. */
  readonly entries: readonly string[];
  readonly dir: string;
  readonly tarball: string;
  readonly unpacked: string;
}

function publishable(): { dir: string; pkg: Manifest }[] {
  const packagesDir = join(root, "packages");
  return readdirSync(packagesDir)
    .map((entry) => join(packagesDir, entry))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest }))
    .filter(({ pkg }) => pkg.private !== true);
}

function pack(dir: string, name: string, out: string): Packed | Step {
  const before = new Set(readdirSync(out));
  const step = run(`pnpm pack ${name}`, "pnpm", ["pack", "--pack-destination", out], dir);
  const made = readdirSync(out).find((f) => f.endsWith(".tgz") && !before.has(f));
  if (!step.ok || made === undefined) return { ...step, ok: false };
  const unpacked = join(out, "unpacked", basename(made, ".tgz"));
  mkdirSync(unpacked, { recursive: true });
  const untar = run(`untar ${made}`, "tar", ["-xzf", join(out, made), "-C", unpacked], out);
  if (!untar.ok) return untar;
  return {
    name,
    entries: entriesOf(dir, name),
    dir,
    tarball: join(out, made),
    unpacked: join(unpacked, "package"),
  };
}

function entriesOf(dir: string, name: string): string[] {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
  const subpaths = Object.keys((pkg.exports ?? {}) as Record<string, unknown>);
  // `./internal` entries are for the other kubesdk packages only (ARCHITECTURE.md), not users.
  return subpaths
    .filter((s) => s !== "./package.json" && s !== "./internal")
    .map((s) => (s === "." ? name : `${name}/${s.slice(2)}`));
}

function report(step: Step): boolean {
  console.log(`${step.ok ? "ok  " : "FAIL"} ${step.name} (${(step.ms / 1000).toFixed(1)} s)`);
  if (!step.ok && step.output)
    console.log(step.output.split("\n").slice(0, 40).join("\n").replace(/^/gm, "     "));
  return step.ok;
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`.padStart(11);
}

function printSizes(packed: readonly Packed[]): void {
  console.log("\npackage                     tarball    unpacked   files");
  for (const p of packed) {
    const { bytes, files } = treeSize(p.unpacked);
    console.log(
      `${p.name.padEnd(24)}${kib(statSync(p.tarball).size)} ${kib(bytes)} ${String(files).padStart(7)}`,
    );
  }
}

async function main(): Promise<number> {
  let ok = report(run("pnpm build", "pnpm", ["build"], root));
  const work = mkdtempSync(join(tmpdir(), "kubesdk-pack-check-"));
  const tarballs = join(work, "tarballs");
  mkdirSync(tarballs);
  const packed: Packed[] = [];
  for (const { dir, pkg } of publishable()) {
    const problems = checkManifest(dir, pkg);
    const result = pack(dir, pkg.name, tarballs);
    if ("ok" in result) {
      ok = report(result) && ok;
      continue;
    }
    problems.push(...checkTarball(result.unpacked));
    if (problems.length > 0) problems.push("(pnpm pack:fix sets the manifest fields and copies LICENSE)");
    ok =
      report({
        name: `${pkg.name}: packaging rules`,
        ok: problems.length === 0,
        ms: 0,
        output: problems.join("\n"),
      }) && ok;
    packed.push(result);
  }
  printSizes(packed);
  console.log(`\nuser project: ${join(work, "project")}`);
  const devDeps = (
    JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Manifest & {
      devDependencies: Record<string, string>;
    }
  ).devDependencies;
  const project = {
    dir: join(work, "project"),
    tarballs: packed.map((p) => p.tarball),
    packageNames: packed.map((p) => p.name),
    entrySpecifiers: packed.flatMap((p) => p.entries),
    programsDir: join(root, "test", "pack"),
    typescript: devDeps.typescript ?? "latest",
    typesNode: devDeps["@types/node"] ?? "20",
    clientNode: devDeps["@kubernetes/client-node"] ?? "1.4.0",
  };
  if (report(createProject(project))) {
    for (const step of typeCheckSteps(project.dir, project.typescript)) ok = report(step) && ok;
    for (const step of await runtimeSteps(project.dir, project.packageNames, project.entrySpecifiers))
      ok = report(step) && ok;
  } else ok = false;
  console.log(
    `\nTypeScript checked: ${project.typescript} and ${MIN_TYPESCRIPT}; Node ${process.versions.node}`,
  );
  if (process.env.KUBESDK_PACK_KEEP === "1") console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
  console.log(ok ? "pack check: ok" : "pack check: FAILED");
  return ok ? 0 : 1;
}

process.exitCode = await main();
