import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { KubeconfigError } from "./errors.js";
import { type MergedKubeconfig, mergeKubeconfigs } from "./merge.js";
import type { KubeconfigDocument } from "./model.js";
import { parseKubeconfig } from "./parse.js";

/** Where kubeconfig files are looked for. Everything defaults to the real process environment. */
export interface KubeconfigLocation {
  /** One explicit file; it must exist, and KUBECONFIG and ~/.kube/config are then ignored. */
  readonly path?: string;
  /** Environment to read KUBECONFIG from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Home directory for `~/.kube/config` (default `os.homedir()`). */
  readonly homeDir?: string;
}

/** The files kubectl would consider, in precedence order, and whether a missing one is an error. */
export function kubeconfigCandidates(location: KubeconfigLocation = {}): {
  files: string[];
  mustExist: boolean;
} {
  if (location.path !== undefined && location.path !== "") return { files: [location.path], mustExist: true };
  const env = location.env ?? process.env;
  const list = env.KUBECONFIG;
  if (list !== undefined && list !== "") {
    const files = [...new Set(list.split(path.delimiter).filter((f) => f !== ""))];
    return { files, mustExist: false };
  }
  return { files: [path.join(location.homeDir ?? os.homedir(), ".kube", "config")], mustExist: false };
}

/**
 * Reads, validates and merges the kubeconfig files kubectl would use. Missing files in KUBECONFIG
 * are skipped; if none exists (or an explicit path is missing) the error code is KUBECONFIG_NOT_FOUND.
 */
export async function loadKubeconfigFiles(location: KubeconfigLocation = {}): Promise<MergedKubeconfig> {
  const { files, mustExist } = kubeconfigCandidates(location);
  const documents: KubeconfigDocument[] = [];
  for (const file of files) {
    const text = await readIfPresent(file, mustExist);
    if (text !== undefined) documents.push(parseKubeconfig(text, file));
  }
  if (documents.length === 0) {
    throw new KubeconfigError(
      "KUBECONFIG_NOT_FOUND",
      `no kubeconfig file found (looked for ${files.join(", ")})`,
    );
  }
  return mergeKubeconfigs(documents);
}

async function readIfPresent(file: string, mustExist: boolean): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      if (mustExist) throw new KubeconfigError("KUBECONFIG_NOT_FOUND", "file does not exist", { file });
      return undefined;
    }
    throw new KubeconfigError("KUBECONFIG_UNREADABLE", `cannot read file (${code ?? "error"})`, {
      file,
      cause: err,
    });
  }
}
