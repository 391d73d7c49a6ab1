import { execFile } from "node:child_process";
import { access, constants } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { RealApiserverError } from "./errors.js";

const execFileAsync = promisify(execFile);

const buildScript = join(dirname(fileURLToPath(import.meta.url)), "build.sh");

/** Overrides where the binaries are looked up (otherwise build.sh decides). */
export const binDirEnvVar = "KUBESDK_REAL_APISERVER_BIN_DIR";

export interface RealApiserverBinaries {
  kubeApiserver: string;
  etcd: string;
  etcdctl: string;
}

/**
 * Finds the binaries build.sh produced. The cache layout is owned by build.sh
 * alone, so this asks it (`--print-bin-dir`, which builds nothing) instead of
 * repeating the path rules here.
 */
export async function locateBinaries(binDir?: string): Promise<RealApiserverBinaries> {
  const dir = await resolveBinDir(binDir);
  const binaries = {
    kubeApiserver: join(dir, "kube-apiserver"),
    etcd: join(dir, "etcd"),
    etcdctl: join(dir, "etcdctl"),
  };
  await requireExecutables(Object.values(binaries));
  return binaries;
}

/** Only etcdctl, for callers that talk to an etcd someone else started. */
export async function locateEtcdctl(binDir?: string): Promise<string> {
  const etcdctl = join(await resolveBinDir(binDir), "etcdctl");
  await requireExecutables([etcdctl]);
  return etcdctl;
}

async function resolveBinDir(binDir: string | undefined): Promise<string> {
  return binDir ?? process.env[binDirEnvVar] ?? (await askBuildScript());
}

async function requireExecutables(paths: readonly string[]): Promise<void> {
  const missing: string[] = [];
  for (const path of paths) {
    try {
      await access(path, constants.X_OK);
    } catch {
      missing.push(path);
    }
  }
  if (missing.length > 0) {
    throw new RealApiserverError(
      "BINARIES_MISSING",
      `real apiserver binaries not built: missing ${missing.join(", ")}; run \`bash ${buildScript}\` first`,
    );
  }
}

async function askBuildScript(): Promise<string> {
  try {
    const { stdout } = await execFileAsync("bash", [buildScript, "--print-bin-dir"]);
    return stdout.trim();
  } catch (cause) {
    throw new RealApiserverError("BINARIES_MISSING", `\`${buildScript} --print-bin-dir\` failed`, { cause });
  }
}
