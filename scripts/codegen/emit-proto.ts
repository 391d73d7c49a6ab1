/**
 * protobufjs JSON descriptors for every message of the API packages and what they import
 * (meta/v1, runtime, intstr, resource, ...). The upstream generated.proto files are parsed with
 * protobufjs, imports are followed to the module that owns them, comments and options are dropped.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ApiPackage, ModuleDirs } from "./api-packages.js";
import { apiVersionOf } from "./emit-types.js";
import { CodegenError } from "./errors.js";
import { type Protobuf, protobuf } from "./protobufjs.js";
import { type GenerationInfo, header, jsonTemplateLiteral } from "./render.js";
import { compareStrings, isObject } from "./shape.js";
import type { UpstreamModule } from "./upstream.js";

export interface EmittedProto {
  readonly content: string;
  readonly messageCount: number;
  /** Every message by full name (without the leading dot), resolved. */
  readonly types: ReadonlyMap<string, Protobuf.Type>;
}

const importOwners: readonly UpstreamModule[] = [
  "k8s.io/apiextensions-apiserver",
  "k8s.io/kube-aggregator",
  "k8s.io/apimachinery",
  "k8s.io/api",
];

export async function emitProto(
  packages: readonly ApiPackage[],
  dirs: ModuleDirs,
  info: GenerationInfo,
): Promise<EmittedProto> {
  const root = new protobuf.Root();
  const protoPackageOf = new Map<string, string>();
  /** Protobuf package of every file parsed so far, by module/path. */
  const parsed = new Map<string, string>();

  const parseFile = async (module: UpstreamModule, path: string): Promise<string> => {
    const where = `${module}/${path}`;
    const known = parsed.get(where);
    if (known !== undefined) return known;
    let text: string;
    try {
      text = await readFile(join(dirs[module], path), "utf8");
    } catch (cause) {
      throw new CodegenError("ERR_PROTO", `cannot read ${where}`, { cause });
    }
    let result: Protobuf.IParserResult;
    try {
      result = protobuf.parse(text, root, { keepCase: true, alternateCommentMode: false });
    } catch (cause) {
      throw new CodegenError("ERR_PROTO", `cannot parse ${where}`, { cause });
    }
    if (!result.package) throw new CodegenError("ERR_PROTO", `${where} has no package`);
    parsed.set(where, result.package);
    for (const imported of result.imports ?? []) {
      const owner = importOwners.find((m) => imported.startsWith(`${m}/`));
      if (!owner)
        throw new CodegenError("ERR_PROTO", `${where} imports ${imported}, which no known module owns`);
      await parseFile(owner, imported.slice(owner.length + 1));
    }
    return result.package;
  };

  for (const pkg of packages) {
    if (!pkg.proto || pkg.group === undefined || pkg.version === undefined) continue;
    const protoPackage = await parseFile(pkg.proto.module, pkg.proto.path);
    protoPackageOf.set(apiVersionOf({ group: pkg.group, version: pkg.version }), protoPackage);
  }
  try {
    root.resolveAll();
  } catch (cause) {
    throw new CodegenError("ERR_PROTO", "unresolved protobuf references", { cause });
  }

  const messages: [string, unknown][] = [];
  const types = new Map<string, Protobuf.Type>();
  collectMessages(root, messages, types);
  messages.sort(([a], [b]) => compareStrings(a, b));
  const packagesByApiVersion = [...protoPackageOf.entries()].sort(([a], [b]) => compareStrings(a, b));

  const content = [
    header(info, "generated.proto of k8s.io/api, apimachinery, apiextensions-apiserver, kube-aggregator"),
    "/** Protobuf package of each built-in apiVersion. */",
    `export const protoPackages: Readonly<Record<string, string>> = ${JSON.stringify(Object.fromEntries(packagesByApiVersion), null, 2)};`,
    "",
    "/** protobufjs JSON descriptors by full message name (without the leading dot). */",
    `export const protoMessagesJson: string = ${jsonTemplateLiteral(messages)};`,
    "",
  ].join("\n");
  return { content, messageCount: messages.length, types };
}

function collectMessages(
  ns: Protobuf.NamespaceBase,
  out: [string, unknown][],
  types: Map<string, Protobuf.Type>,
): void {
  for (const child of ns.nestedArray) {
    if (child instanceof protobuf.Type) {
      types.set(child.fullName.slice(1), child);
      out.push([
        child.fullName.slice(1),
        clean(child.toJSON({ keepComments: false }), child.fullName.slice(1)),
      ]);
    } else if (child instanceof protobuf.Enum) {
      throw new CodegenError("ERR_PROTO", `top-level enum ${child.fullName} is not supported`);
    } else if (child instanceof protobuf.Namespace) {
      collectMessages(child, out, types);
    }
  }
}

/**
 * Keeps what decoding needs from a message descriptor: edition, fields (type, id, rule, keyType),
 * oneofs and nested types. Options (go_package, casttype, ...), comments and reserved ranges go.
 * Walks the known descriptor layout rather than dropping keys by name, because fields may be
 * called "options" too.
 */
function clean(json: unknown, where: string): unknown {
  if (!isObject(json)) throw new CodegenError("ERR_PROTO", `${where}: descriptor is not an object`);
  const out: Record<string, unknown> = {};
  if (json.edition !== undefined) out.edition = json.edition;
  if (isObject(json.values)) {
    out.values = json.values; // a nested enum
    return out;
  }
  if (isObject(json.fields)) {
    out.fields = Object.fromEntries(
      Object.entries(json.fields).map(([name, field]) => {
        if (!isObject(field)) throw new CodegenError("ERR_PROTO", `${where}.${name}: field is not an object`);
        if (isObject(field.options) && "packed" in field.options) {
          throw new CodegenError(
            "ERR_PROTO",
            `${where}.${name} sets [packed]; keep that option when this happens`,
          );
        }
        const { options: _options, comment: _comment, ...kept } = field;
        return [name, kept];
      }),
    );
  }
  if (json.oneofs !== undefined) out.oneofs = json.oneofs;
  if (isObject(json.nested)) {
    out.nested = Object.fromEntries(
      Object.entries(json.nested).map(([name, nested]) => [name, clean(nested, `${where}.${name}`)]),
    );
  }
  return out;
}
