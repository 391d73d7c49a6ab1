/**
 * The figure users feel: the wall time of the repository's own contract suites (files taking their
 * server from test/support/target.ts) on each server, the way developers run them —
 * `pnpm vitest run FILES` (embedded reference server, one per file) against
 * `bash scripts/real-apiserver/test-real.sh FILES` (one kube-apiserver + etcd for the run, its
 * start included). A failing run fails the benchmark: a wrong answer is not a fast one.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** A spread of contract suites: CRUD, apply, watch, lists, subresources, discovery. */
export const defaultContractFiles = [
  "test/client/typed-crud.test.ts",
  "test/client/apply.test.ts",
  "test/client/watch.test.ts",
  "test/client/list-pagination.test.ts",
  "test/client/subresources.test.ts",
  "test/client/discovery-dynamic.test.ts",
  "test/apply/ssa-scenarios.test.ts",
];

export type ContractServer = "reference" | "real";

/** Runs the files on one server; resolves with the wall time in ms, rejects when a test failed. */
export function timeContractSuites(server: ContractServer, files: readonly string[]): Promise<number> {
  const [command, args] =
    server === "reference"
      ? ["pnpm", ["vitest", "run", ...files]]
      : ["bash", ["scripts/real-apiserver/test-real.sh", ...files]];
  const t0 = performance.now();
  const child = spawn(command, args, { cwd: repoRoot, stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString("utf8")).slice(-4000);
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code === 0) resolve(performance.now() - t0);
      else reject(new Error(`contract suites on ${server} exited ${code}:\n${errors}`));
    });
  });
}
