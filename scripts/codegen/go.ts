/**
 * Runs the Go toolchain for codegen: always the locally installed Go (GOTOOLCHAIN=local, so no
 * toolchain download) with module updates allowed (GOFLAGS=-mod=mod). A missing `go` is a
 * CodegenError saying so, not a bare spawn error.
 */
import { execFile } from "node:child_process";
import { CodegenError } from "./errors.js";

export interface GoResult {
  readonly stdout: string;
  /** The first line of the error and go's stderr when go exited non-zero. */
  readonly failure: string | undefined;
}

export function runGo(args: readonly string[], cwd: string): Promise<GoResult> {
  const env = { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" };
  return new Promise((resolve, reject) => {
    execFile("go", args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if ((error as NodeJS.ErrnoException | null)?.code === "ENOENT") {
        reject(
          new CodegenError(
            "ERR_GO_MISSING",
            "Go is not installed (no `go` on PATH): `pnpm codegen` needs it to read the pinned " +
              "Kubernetes modules and the Go field facts (scripts/codegen/go-field-facts)",
          ),
        );
        return;
      }
      resolve({ stdout, failure: error ? `${error.message.split("\n")[0]} ${stderr}`.trim() : undefined });
    });
  });
}
