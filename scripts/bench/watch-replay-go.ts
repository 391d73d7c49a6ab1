/**
 * The Go replay reader (watch-replay-go/): built on first use with only the Go toolchain (the
 * module uses the standard library alone, so no module download), cached outside the repository
 * by the hash of its sources and the Go version:
 *
 *   ${KUBESDK_CACHE:-~/.cache/kubesdk}/watch-replay-go/go-build/               Go build cache
 *   ${KUBESDK_CACHE:-~/.cache/kubesdk}/watch-replay-go/<hash>/watch-replay-go   the binary
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const sourceDir = fileURLToPath(new URL("./watch-replay-go/", import.meta.url));

class GoReaderBuildError extends Error {
  override readonly name = "GoReaderBuildError";
  readonly code = "BENCH_GO_READER_BUILD";
}

function goVersion(): string {
  try {
    return execFileSync("go", ["version"], { encoding: "utf8" });
  } catch (cause) {
    throw new GoReaderBuildError(
      "the replay rows' Go reader needs Go on the PATH (BENCH_REPLAY_READER=node: the Node reader)",
      { cause },
    );
  }
}

/** The reader's binary, built now if its sources or the Go version changed. */
export function goReaderBinary(): string {
  const cacheRoot = join(
    process.env.KUBESDK_CACHE ?? join(homedir(), ".cache", "kubesdk"),
    "watch-replay-go",
  );
  const hash = createHash("sha256").update(goVersion());
  for (const file of readdirSync(sourceDir)
    .filter((f) => /\.(go|mod)$/.test(f))
    .sort()) {
    hash.update(file).update(readFileSync(join(sourceDir, file)));
  }
  const bin = join(cacheRoot, hash.digest("hex").slice(0, 16), "watch-replay-go");
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
