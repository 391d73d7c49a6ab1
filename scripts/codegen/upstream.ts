/**
 * Locates the pinned upstream Kubernetes Go modules on disk.
 *
 * The generator and the tests (which read the k8s.io/api testdata fixtures, never committed) both
 * go through here, so there is one place that knows the pinned release and how to fetch it.
 * `go mod download -json` answers from the module cache when it can, so repeated calls are cheap.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CodegenError } from "./errors.js";
import { runGo } from "./go.js";

export type UpstreamModule =
  | "k8s.io/kubernetes"
  | "k8s.io/api"
  | "k8s.io/apimachinery"
  | "k8s.io/apiextensions-apiserver"
  | "k8s.io/kube-aggregator";

export interface PinnedRelease {
  /** The Kubernetes release, e.g. "1.37.1". */
  readonly kubernetes: string;
  /** Go module version of k8s.io/kubernetes, e.g. "v1.37.1". */
  readonly kubernetesModuleVersion: string;
  /** Go module version of the staging modules (k8s.io/api, ...), e.g. "v0.37.1". */
  readonly stagingModuleVersion: string;
}

export const repoRoot: string = fileURLToPath(new URL("../../", import.meta.url));

const releaseFile = join(repoRoot, "k8s-release.json");

export async function pinnedRelease(): Promise<PinnedRelease> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(releaseFile, "utf8"));
  } catch (cause) {
    throw new CodegenError("ERR_RELEASE_FILE", `cannot read ${releaseFile}`, { cause });
  }
  const version = (parsed as { kubernetes?: unknown }).kubernetes;
  const match = typeof version === "string" ? /^1\.(\d+)\.(\d+)$/.exec(version) : null;
  if (!match) {
    throw new CodegenError(
      "ERR_RELEASE_FILE",
      `${releaseFile}: "kubernetes" must be a 1.x.y release, got ${JSON.stringify(version)}`,
    );
  }
  return {
    kubernetes: version as string,
    kubernetesModuleVersion: `v${version}`,
    stagingModuleVersion: `v0.${match[1]}.${match[2]}`,
  };
}

export function moduleVersion(module: UpstreamModule, release: PinnedRelease): string {
  return module === "k8s.io/kubernetes" ? release.kubernetesModuleVersion : release.stagingModuleVersion;
}

interface GoModDownload {
  Path?: string;
  Version?: string;
  Dir?: string;
  Error?: string;
}

/** Directory of `module` at the pinned release in the Go module cache, downloading it if needed. */
export async function upstreamModuleDir(module: UpstreamModule, release?: PinnedRelease): Promise<string> {
  const pinned = release ?? (await pinnedRelease());
  const ref = `${module}@${moduleVersion(module, pinned)}`;
  // An empty temp dir keeps go from picking up any go.mod/go.work around the caller.
  const cwd = await mkdtemp(join(tmpdir(), "kubesdk-codegen-"));
  try {
    const { stdout, failure } = await runGo(["mod", "download", "-json", ref], cwd);
    let info: GoModDownload = {};
    try {
      info = JSON.parse(stdout) as GoModDownload;
    } catch {
      // fall through: reported below with whatever go said
    }
    if (failure || info.Error || !info.Dir) {
      const reason = info.Error ?? failure ?? "no Dir in output";
      throw new CodegenError("ERR_GO_MOD_DOWNLOAD", `go mod download ${ref} failed: ${reason}`);
    }
    return info.Dir;
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}
