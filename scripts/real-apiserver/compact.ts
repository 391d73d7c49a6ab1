import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { locateEtcdctl } from "./binaries.js";
import { RealApiserverError } from "./errors.js";

const execFileAsync = promisify(execFile);

export interface CompactEtcdOptions {
  /** Directory holding etcdctl; default: where build.sh puts it. */
  binDir?: string;
}

export interface EtcdCompaction {
  /** The revision etcd was compacted to: its current revision at the time of the call. */
  revision: number;
}

async function etcdctl(etcdctlPath: string, endpoint: string, args: readonly string[]): Promise<string> {
  const { stdout } = await execFileAsync(etcdctlPath, [
    `--endpoints=${endpoint}`,
    "--command-timeout=10s",
    ...args,
  ]);
  return stdout;
}

function headerRevision(statusJson: string): number {
  const parsed = JSON.parse(statusJson) as Array<{ Status?: { header?: { revision?: unknown } } }>;
  const revision = parsed[0]?.Status?.header?.revision;
  if (typeof revision !== "number" || !Number.isSafeInteger(revision) || revision < 1) {
    throw new Error(`no usable header revision in \`etcdctl endpoint status\` output: ${statusJson.trim()}`);
  }
  return revision;
}

/**
 * Compacts etcd to its current revision and waits until the compaction is
 * physically applied, so every older resourceVersion is gone from storage
 * afterwards (lists/watches at those versions get 410 once the apiserver's
 * watch cache no longer covers them, e.g. with watchCache: false).
 * Compacting again at an already compacted revision counts as done.
 */
export async function compactEtcd(
  etcdEndpoint: string,
  options: CompactEtcdOptions = {},
): Promise<EtcdCompaction> {
  const etcdctlPath = await locateEtcdctl(options.binDir);
  let revision: number | undefined;
  try {
    revision = headerRevision(
      await etcdctl(etcdctlPath, etcdEndpoint, ["endpoint", "status", "--write-out=json"]),
    );
    await etcdctl(etcdctlPath, etcdEndpoint, ["compaction", "--physical", String(revision)]);
    return { revision };
  } catch (cause) {
    const stderr = String((cause as { stderr?: unknown }).stderr ?? "");
    if (revision !== undefined && stderr.includes("required revision has been compacted"))
      return { revision };
    throw new RealApiserverError(
      "COMPACTION_FAILED",
      `compacting etcd at ${etcdEndpoint}${revision !== undefined ? ` to revision ${revision}` : ""} failed: ${
        stderr.trim() || (cause instanceof Error ? cause.message : String(cause))
      }`,
      { cause },
    );
  }
}
