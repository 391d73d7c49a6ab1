/** Writing the generated tree to disk and comparing it with what is committed. */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";

/** Replaces `dir` with exactly the given files (stale generated files must not linger). */
export async function writeTree(dir: string, files: ReadonlyMap<string, string>): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  for (const [path, content] of files) {
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}

export interface TreeDifference {
  readonly path: string;
  readonly problem: "missing" | "unexpected" | "different";
}

/** Byte-for-byte comparison of `files` with the contents of `dir`. */
export async function diffTree(dir: string, files: ReadonlyMap<string, string>): Promise<TreeDifference[]> {
  const onDisk = await listFiles(dir);
  const differences: TreeDifference[] = [];
  for (const [path, content] of files) {
    if (!onDisk.has(path)) {
      differences.push({ path, problem: "missing" });
      continue;
    }
    const actual = await readFile(join(dir, path));
    if (!actual.equals(Buffer.from(content))) differences.push({ path, problem: "different" });
  }
  for (const path of onDisk) {
    if (!files.has(path)) differences.push({ path, problem: "unexpected" });
  }
  return differences.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function listFiles(dir: string): Promise<Set<string>> {
  const out = new Set<string>();
  const walk = async (current: string): Promise<void> => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) await walk(path);
      else out.add(relative(dir, path).split(sep).join("/"));
    }
  };
  await walk(dir);
  return out;
}

export function totalBytes(files: ReadonlyMap<string, string>): number {
  let total = 0;
  for (const content of files.values()) total += Buffer.byteLength(content);
  return total;
}
