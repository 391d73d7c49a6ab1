/** TypeScript declarations, one module per API group/version, from the normalised shapes. */
import type { ApiPackage } from "./api-packages.js";
import { packageOf } from "./api-packages.js";
import { fieldComment, typeComment } from "./doc-comments.js";
import { type GenerationInfo, header, propertyKey } from "./render.js";
import { compareStrings, type Gvk, type Shape } from "./shape.js";

export interface EmittedTypes {
  /** Relative path (under generated/) → content. */
  readonly files: Map<string, string>;
  readonly typeCount: number;
}

export function emitTypes(
  shapes: ReadonlyMap<string, Shape>,
  packages: readonly ApiPackage[],
  info: GenerationInfo,
): EmittedTypes {
  const byModule = new Map<string, { pkg: ApiPackage; names: string[] }>();
  for (const name of shapes.keys()) {
    const pkg = packageOf(packages, name);
    const entry = byModule.get(pkg.typesModule) ?? { pkg, names: [] };
    entry.names.push(name);
    byModule.set(pkg.typesModule, entry);
  }

  const files = new Map<string, string>();
  const modules = [...byModule.keys()].sort(compareStrings);
  for (const module of modules) {
    const { pkg, names } = byModule.get(module) as { pkg: ApiPackage; names: string[] };
    files.set(`types/${module}.ts`, emitModule(pkg, names, shapes, packages, info));
  }
  files.set(
    "namespaces.ts",
    emitNamespaces(
      modules.map((m) => (byModule.get(m) as { pkg: ApiPackage }).pkg),
      info,
    ),
  );
  files.set("kinds.ts", emitKindMap(shapes, packages, info));
  return { files, typeCount: shapes.size };
}

function emitModule(
  pkg: ApiPackage,
  names: readonly string[],
  shapes: ReadonlyMap<string, Shape>,
  packages: readonly ApiPackage[],
  info: GenerationInfo,
): string {
  const imports = new Map<string, string>();
  const ctx: TypeContext = {
    reference(target) {
      const owner = packageOf(packages, target);
      const local = target.slice(target.lastIndexOf(".") + 1);
      if (owner.typesModule === pkg.typesModule) return local;
      imports.set(owner.namespace, owner.typesModule);
      return `${owner.namespace}.${local}`;
    },
  };
  const declarations = names
    .slice()
    .sort(compareStrings)
    .map((name) => {
      const local = name.slice(name.lastIndexOf(".") + 1);
      const shape = shapes.get(name) as Shape;
      return `${typeComment(info, pkg, name, shape)}\n${declaration(local, shape, ctx)}`;
    });
  const importLines = [...imports.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([namespace, module]) => `import type * as ${namespace} from "./${module}.js";`);
  const source = pkg.group === undefined ? "apimachinery helper types" : `OpenAPI v3 ${pkg.openapiPrefix}`;
  return [
    header(info, source),
    ...importLines,
    ...(importLines.length ? [""] : []),
    declarations.join("\n\n"),
    "",
  ].join("\n");
}

interface TypeContext {
  reference(target: string): string;
}

function declaration(name: string, shape: Shape, ctx: TypeContext): string {
  if (shape.kind === "struct") {
    return `export interface ${name} ${structBody(shape, ctx, "")}`;
  }
  return `export type ${name} = ${typeOf(shape, ctx, "")};`;
}

function structBody(shape: Extract<Shape, { kind: "struct" }>, ctx: TypeContext, indent: string): string {
  const inner = `${indent}  `;
  const literal = shape.gvks.length === 1 ? (shape.gvks[0] as Gvk) : undefined;
  const required = new Set(shape.required);
  const lines = shape.fields.map((field) => {
    const optional = required.has(field.name) ? "" : "?";
    let type = typeOf(field.shape, ctx, inner);
    if (literal && field.name === "apiVersion") type = JSON.stringify(apiVersionOf(literal));
    if (literal && field.name === "kind") type = JSON.stringify(literal.kind);
    return `${inner}${fieldComment(field, optional === "")}\n${inner}${propertyKey(field.name)}${optional}: ${type};`;
  });
  if (shape.preserveUnknownFields) lines.push(`${inner}[field: string]: unknown;`);
  return `{\n${lines.join("\n")}\n${indent}}`;
}

function typeOf(shape: Shape, ctx: TypeContext, indent: string): string {
  switch (shape.kind) {
    case "ref":
      return ctx.reference(shape.target);
    case "scalar":
      switch (shape.scalar) {
        case "integer":
        case "number":
          return "number";
        case "int-or-string":
        case "number-or-string":
          return "number | string";
        default:
          return shape.scalar;
      }
    case "list": {
      const item = typeOf(shape.items, ctx, indent);
      return /[ |&]/.test(item) && !item.startsWith("{") ? `Array<${item}>` : `${item}[]`;
    }
    case "map":
      return `{ [key: string]: ${typeOf(shape.values, ctx, indent)} }`;
    case "untyped":
      return shape.object || shape.preserveUnknownFields ? "{ [key: string]: unknown }" : "unknown";
    case "struct":
      return structBody(shape, ctx, indent);
  }
}

export function apiVersionOf(gvk: { group: string; version: string }): string {
  return gvk.group === "" ? gvk.version : `${gvk.group}/${gvk.version}`;
}

function emitNamespaces(packages: readonly ApiPackage[], info: GenerationInfo): string {
  const lines = packages
    .slice()
    .sort((a, b) => compareStrings(a.namespace, b.namespace))
    .map((pkg) => `export type * as ${pkg.namespace} from "./types/${pkg.typesModule}.js";`);
  return [header(info, "OpenAPI v3 component schemas"), ...lines, ""].join("\n");
}

/** `BuiltinKinds["apps/v1"]["Deployment"]` → the Deployment type; for typed clients. */
function emitKindMap(
  shapes: ReadonlyMap<string, Shape>,
  packages: readonly ApiPackage[],
  info: GenerationInfo,
): string {
  const byApiVersion = new Map<string, Map<string, string>>();
  const namespaces = new Map<string, string>();
  for (const [name, shape] of shapes) {
    if (shape.kind !== "struct") continue;
    const pkg = packageOf(packages, name);
    for (const gvk of shape.gvks) {
      const kinds = byApiVersion.get(apiVersionOf(gvk)) ?? new Map<string, string>();
      kinds.set(gvk.kind, `${pkg.namespace}.${name.slice(name.lastIndexOf(".") + 1)}`);
      byApiVersion.set(apiVersionOf(gvk), kinds);
      namespaces.set(pkg.namespace, pkg.typesModule);
    }
  }
  const imports = [...namespaces.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([namespace, module]) => `import type * as ${namespace} from "./types/${module}.js";`);
  const body = [...byApiVersion.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([apiVersion, kinds]) => {
      const entries = [...kinds.entries()]
        .sort(([a], [b]) => compareStrings(a, b))
        .map(([kind, type]) => `    ${propertyKey(kind)}: ${type};`);
      return `  ${JSON.stringify(apiVersion)}: {\n${entries.join("\n")}\n  };`;
    });
  return [
    header(info, "x-kubernetes-group-version-kind of the OpenAPI v3 component schemas"),
    ...imports,
    "",
    "/** Built-in object types by apiVersion and kind. */",
    "export interface BuiltinKinds {",
    ...body,
    "}",
    "",
  ].join("\n");
}
