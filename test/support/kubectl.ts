/**
 * Runs the real kubectl against a test target and returns what it printed and its exit code
 * (never throws on a non-zero exit: tests assert on failures too). Each runner gets its own
 * discovery cache directory, so suites do not see each other's cached discovery.
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);

export interface KubectlResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

export type Kubectl = (...args: string[]) => Promise<KubectlResult>;

/** A kubectl bound to a kubeconfig (and, optionally, a namespace and extra environment). */
export function kubectlFor(
  kubeconfigPath: () => string,
  namespace?: string,
  env: Record<string, string> = {},
): Kubectl {
  const cacheDir = mkdtempSync(join(tmpdir(), "kubesdk-kubectl-cache-"));
  return async (...args) => {
    const base = [
      "--kubeconfig",
      kubeconfigPath(),
      "--cache-dir",
      cacheDir,
      ...(namespace ? ["-n", namespace] : []),
    ];
    try {
      const { stdout, stderr } = await exec("kubectl", [...base, ...args], {
        timeout: 60_000,
        env: { ...process.env, ...env },
      });
      return { stdout, stderr, code: 0 };
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string; code?: number };
      return {
        stdout: err.stdout ?? "",
        stderr: err.stderr ?? "",
        code: typeof err.code === "number" ? err.code : 1,
      };
    }
  };
}
