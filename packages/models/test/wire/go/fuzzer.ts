/**
 * Builds and runs the Go side of the differential fuzz test (main.go here). The binary is cached
 * outside the repository, keyed by its sources and the Go version, like the other Go builds:
 *
 *   ${KUBESDK_CACHE:-~/.cache/kubesdk}/wire-fuzz/go-build/        Go build cache (GOCACHE)
 *   ${KUBESDK_CACHE:-~/.cache/kubesdk}/wire-fuzz/<hash>/go-wire    the binary
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const sourceDir = dirname(fileURLToPath(import.meta.url));

export function buildFuzzer(): string {
  const cacheRoot = join(process.env.KUBESDK_CACHE ?? join(homedir(), ".cache", "kubesdk"), "wire-fuzz");
  const hash = createHash("sha256");
  hash.update(goVersion());
  for (const file of readdirSync(sourceDir)
    .filter((f) => /\.(go|mod|sum)$/.test(f))
    .sort()) {
    hash.update(file).update(readFileSync(join(sourceDir, file)));
  }
  const binDir = join(cacheRoot, hash.digest("hex").slice(0, 16));
  const bin = join(binDir, "go-wire");
  if (existsSync(bin)) return bin;
  mkdirSync(binDir, { recursive: true });
  const partial = `${bin}.${process.pid}.tmp`;
  execFileSync("go", ["build", "-o", partial, "."], {
    cwd: sourceDir,
    env: { ...process.env, GOCACHE: join(cacheRoot, "go-build"), GOFLAGS: "-mod=readonly" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  renameSync(partial, bin);
  return bin;
}

function goVersion(): string {
  try {
    return execFileSync("go", ["version"], { encoding: "utf8" });
  } catch (cause) {
    throw new Error("the differential wire fuzz test needs Go on the PATH", { cause });
  }
}

export interface Sample {
  readonly i: number;
  readonly kind: string;
  readonly json?: string;
  readonly pb?: string;
  /** Go's bytes for the random object as filled, when Go decodes them to `json` as well. */
  readonly rawPB?: string;
  readonly skip?: string;
}

export interface Failure {
  readonly i: number;
  readonly kind: string;
  readonly problem: string;
}

const maxBuffer = 1 << 30;

export function generate(bin: string, seed: number, count: number): Sample[] {
  const out = execFileSync(bin, ["gen", "-seed", String(seed), "-n", String(count)], {
    encoding: "utf8",
    maxBuffer,
  });
  return out
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Sample);
}

/** Go reads back kubesdk's encodings ({i, pb}) and reports the ones that differ. */
export function verify(
  bin: string,
  seed: number,
  count: number,
  answers: { i: number; pb: string }[],
): { checked: number; kinds: number; failures: Failure[] } {
  const out = execFileSync(bin, ["verify", "-seed", String(seed), "-n", String(count)], {
    encoding: "utf8",
    input: answers.map((a) => JSON.stringify(a)).join("\n"),
    maxBuffer,
  });
  return JSON.parse(out) as { checked: number; kinds: number; failures: Failure[] };
}
