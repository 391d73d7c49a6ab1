/**
 * The benchmarks' Go programs (watch-replay-go/, write-load-go/: load generators that must cost far
 * less than the servers they measure), built on first use with only the Go toolchain (their
 * modules use the standard library alone, so no module download) and cached outside the
 * repository by the hash of their sources and the Go version:
 *
 *   ${KUBESDK_CACHE:-~/.cache/kubesdk}/<program>/go-build/          Go build cache
 *   ${KUBESDK_CACHE:-~/.cache/kubesdk}/<program>/<hash>/<program>   the binary
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

class GoProgramBuildError extends Error {
  override readonly name = "GoProgramBuildError";
  readonly code = "BENCH_GO_PROGRAM_BUILD";
}

function goVersion(program: string, instead: string): string {
  try {
    return execFileSync("go", ["version"], { encoding: "utf8" });
  } catch (cause) {
    throw new GoProgramBuildError(`the benchmark's ${program} needs Go on the PATH (${instead})`, { cause });
  }
}

/**
 * The binary of scripts/bench/<program>/, built now if its sources or the Go version changed.
 * `instead` tells the user how to do without it when Go is missing.
 */
export function goBenchProgram(program: string, instead: string): string {
  const sourceDir = fileURLToPath(new URL(`./${program}/`, import.meta.url));
  const cacheRoot = join(process.env.KUBESDK_CACHE ?? join(homedir(), ".cache", "kubesdk"), program);
  const hash = createHash("sha256").update(goVersion(program, instead));
  for (const file of readdirSync(sourceDir)
    .filter((f) => /\.(go|mod)$/.test(f))
    .sort()) {
    hash.update(file).update(readFileSync(join(sourceDir, file)));
  }
  const bin = join(cacheRoot, hash.digest("hex").slice(0, 16), program);
  if (existsSync(bin)) return bin;
  mkdirSync(join(bin, ".."), { recursive: true });
  const partial = `${bin}.${process.pid}.tmp`;
  execFileSync("go", ["build", "-trimpath", "-o", partial, "."], {
    cwd: sourceDir,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      CGO_ENABLED: "0",
      GOTOOLCHAIN: "local",
      GOCACHE: join(cacheRoot, "go-build"),
      GOFLAGS: "-mod=readonly -buildvcs=false",
    },
  });
  renameSync(partial, bin);
  return bin;
}
