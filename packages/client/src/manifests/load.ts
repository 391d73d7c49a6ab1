/** Loading manifests: multi-document YAML or JSON from strings, files and directories. */
import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import { parseAllDocuments } from "yaml";
import type { DynamicObject } from "../kube.js";
import { PodIoError } from "../pods/errors.js";

const EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/** Parses every document of a YAML (or JSON) text; `List` kinds are flattened into their items. */
export function parseManifests(text: string, origin = "<string>"): DynamicObject[] {
  const out: DynamicObject[] = [];
  const documents = parseAllDocuments(text);
  if (!Array.isArray(documents)) throw invalid(origin, "not a YAML stream");
  documents.forEach((doc, index) => {
    if (doc.errors.length > 0)
      throw invalid(`${origin} document ${index + 1}`, doc.errors[0]?.message ?? "bad YAML");
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return;
    collect(value, `${origin} document ${index + 1}`, out);
  });
  return out;
}

function collect(value: unknown, where: string, out: DynamicObject[]): void {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalid(where, "not an object");
  const obj = value as Record<string, unknown>;
  if (typeof obj.kind === "string" && obj.kind.endsWith("List") && Array.isArray(obj.items)) {
    for (const [i, item] of obj.items.entries()) collect(item, `${where} item ${i + 1}`, out);
    return;
  }
  if (typeof obj.apiVersion !== "string" || obj.apiVersion === "")
    throw invalid(where, "apiVersion is missing");
  if (typeof obj.kind !== "string" || obj.kind === "") throw invalid(where, "kind is missing");
  const name = (obj.metadata as { name?: unknown } | undefined)?.name;
  if (typeof name !== "string" || name === "") throw invalid(where, "metadata.name is missing");
  out.push(obj as DynamicObject);
}

function invalid(where: string, what: string): PodIoError {
  return new PodIoError("MANIFEST_INVALID", `${where}: ${what}`);
}

/**
 * Loads manifests from files and directories (recursively, `.yaml`, `.yml` and `.json` files in
 * name order), in the order given.
 */
export async function loadManifests(paths: string | readonly string[]): Promise<DynamicObject[]> {
  const out: DynamicObject[] = [];
  for (const path of typeof paths === "string" ? [paths] : paths) {
    for (const file of await filesOf(path)) out.push(...parseManifests(await readFile(file, "utf8"), file));
  }
  return out;
}

async function filesOf(path: string): Promise<string[]> {
  const info = await stat(path).catch((err: Error) => {
    throw new PodIoError("MANIFEST_INVALID", `cannot read ${path}: ${err.message}`, { cause: err });
  });
  if (!info.isDirectory()) return [path];
  const files: string[] = [];
  for (const entry of (await readdir(path, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) files.push(...(await filesOf(child)));
    else if (EXTENSIONS.has(extname(entry.name).toLowerCase())) files.push(child);
  }
  return files;
}
