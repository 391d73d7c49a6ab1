/**
 * Reads the published OpenAPI v3 documents of k8s.io/kubernetes (api/openapi-spec/v3/*.json):
 * merges their component schemas into shapes and keeps the paths for the resource registry.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { CodegenError } from "./errors.js";
import { compareGvk, compareStrings, type Gvk, isObject, type Shape, toShape } from "./shape.js";
import { supplementalSchemas } from "./supplement.js";

export interface OpenApiPath {
  /** e.g. "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale" */
  readonly path: string;
  readonly item: Record<string, unknown>;
}

export interface OpenApiModel {
  /** Component schemas by full name, in name order. */
  readonly shapes: ReadonlyMap<string, Shape>;
  readonly paths: readonly OpenApiPath[];
}

export async function loadOpenApi(kubernetesDir: string): Promise<OpenApiModel> {
  const specDir = join(kubernetesDir, "api", "openapi-spec", "v3");
  const files = (await readdir(specDir)).filter((f) => f.endsWith(".json")).sort(compareStrings);
  if (files.length === 0) throw new CodegenError("ERR_OPENAPI_SHAPE", `no OpenAPI documents in ${specDir}`);

  const shapes = new Map<string, Shape>();
  const paths: OpenApiPath[] = [];
  for (const file of files) {
    const doc: unknown = JSON.parse(await readFile(join(specDir, file), "utf8"));
    if (!isObject(doc)) throw new CodegenError("ERR_OPENAPI_SHAPE", `${file}: not a JSON object`);
    const schemas =
      isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
    for (const [name, schema] of Object.entries(schemas)) {
      mergeShape(shapes, name, toShape(schema, name), file);
    }
    for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
      if (isObject(item)) paths.push({ path, item });
    }
  }
  for (const [name, schema] of Object.entries(supplementalSchemas)) {
    if (shapes.has(name)) {
      throw new CodegenError(
        "ERR_OPENAPI_SHAPE",
        `${name} is now published upstream: drop it from supplement.ts`,
      );
    }
    shapes.set(name, toShape(schema, name));
  }
  paths.sort((a, b) => compareStrings(a.path, b.path));
  const sorted = new Map([...shapes.entries()].sort(([a], [b]) => compareStrings(a, b)));
  return { shapes: sorted, paths };
}

/**
 * The same schema appears in many documents; copies differ only in the GVKs they list (each
 * document names the group it serves, e.g. DeleteOptions in apps/v1), so the GVKs are unioned.
 */
function mergeShape(shapes: Map<string, Shape>, name: string, shape: Shape, file: string): void {
  const existing = shapes.get(name);
  if (!existing) {
    shapes.set(name, shape);
    return;
  }
  if (existing.kind !== "struct" || shape.kind !== "struct") {
    if (JSON.stringify(existing) !== JSON.stringify(shape)) {
      throw new CodegenError("ERR_OPENAPI_SHAPE", `${file}: ${name} differs from an earlier document`);
    }
    return;
  }
  if (JSON.stringify({ ...existing, gvks: [] }) !== JSON.stringify({ ...shape, gvks: [] })) {
    throw new CodegenError("ERR_OPENAPI_SHAPE", `${file}: ${name} differs from an earlier document`);
  }
  existing.gvks = unionGvks(existing.gvks, shape.gvks);
}

function unionGvks(a: readonly Gvk[], b: readonly Gvk[]): Gvk[] {
  const byKey = new Map<string, Gvk>();
  for (const gvk of [...a, ...b]) byKey.set(`${gvk.group}/${gvk.version}/${gvk.kind}`, gvk);
  return [...byKey.values()].sort(compareGvk);
}
