/** Runs every emitter and returns the generated tree as relative path → content. */
import { join } from "node:path";
import { listApiPackages, type ModuleDirs } from "./api-packages.js";
import { emitKindNames } from "./emit-kind-names.js";
import { emitProto } from "./emit-proto.js";
import { emitProtoDecode } from "./emit-proto-decode.js";
import { emitProtoEncode } from "./emit-proto-encode.js";
import { emitResources } from "./emit-resources.js";
import { emitSchema } from "./emit-schema.js";
import { emitTypes } from "./emit-types.js";
import { emitWireFacts } from "./emit-wire-facts.js";
import { readGoFieldFacts } from "./go-field-facts.js";
import { readRegistryNames } from "./go-registry.js";
import { readPriorities } from "./group-priority.js";
import { loadOpenApi } from "./openapi.js";
import { type GenerationInfo, header } from "./render.js";
import { resourcesFromPaths } from "./resource-paths.js";
import { type PinnedRelease, pinnedRelease, type UpstreamModule, upstreamModuleDir } from "./upstream.js";

export interface GeneratedTree {
  readonly release: PinnedRelease;
  /** Path relative to packages/models/src/generated → file content. */
  readonly files: ReadonlyMap<string, string>;
  readonly stats: {
    readonly types: number;
    readonly resources: number;
    readonly groups: number;
    readonly protoMessages: number;
    readonly wireFactFields: number;
  };
}

export interface GenerateOptions {
  /** Move go-field-facts/go.mod to the pinned versions if it differs (false: fail instead). */
  readonly updateGoMod: boolean;
}

const modules: readonly UpstreamModule[] = [
  "k8s.io/kubernetes",
  "k8s.io/api",
  "k8s.io/apimachinery",
  "k8s.io/apiextensions-apiserver",
  "k8s.io/kube-aggregator",
];

export async function generateModels(options: GenerateOptions): Promise<GeneratedTree> {
  const release = await pinnedRelease();
  // Compiling and running the Go program takes the longest; it overlaps with everything else.
  const goFacts = readGoFieldFacts(release, options);
  goFacts.catch(() => {}); // awaited below; avoids an unhandled rejection if an earlier step throws
  const found = await Promise.all(
    modules.map(async (m) => [m, await upstreamModuleDir(m, release)] as const),
  );
  const dirs = Object.fromEntries(found) as ModuleDirs;
  const info = { kubernetes: release.kubernetes };

  const [openapi, packages, names, priorities] = await Promise.all([
    loadOpenApi(dirs["k8s.io/kubernetes"]),
    listApiPackages(dirs),
    readRegistryNames([
      join(dirs["k8s.io/kubernetes"], "pkg", "registry"),
      join(dirs["k8s.io/apiextensions-apiserver"], "pkg", "registry"),
      join(dirs["k8s.io/kube-aggregator"], "pkg", "registry"),
    ]),
    readPriorities(dirs["k8s.io/kubernetes"]),
  ]);

  const files = new Map<string, string>();
  const types = emitTypes(openapi.shapes, packages, info);
  for (const [path, content] of types.files) files.set(path, content);
  const resources = emitResources(resourcesFromPaths(openapi.paths), names, priorities, info);
  files.set("resources.ts", resources.content);
  files.set("kind-names.ts", emitKindNames(resources, openapi.shapes, packages, info));
  files.set("schema.ts", emitSchema(openapi.shapes, info));
  const proto = await emitProto(packages, dirs, info);
  files.set("proto.ts", proto.content);
  const facts = await goFacts;
  const wireFacts = emitWireFacts(proto.types, facts, info);
  files.set("wire-facts.ts", wireFacts.content);
  files.set("proto-decode.ts", emitProtoDecode(proto.types, facts, info).content);
  files.set("proto-encode.ts", emitProtoEncode(proto.types, facts, info));
  files.set("release.ts", emitRelease(info));

  const sorted = new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    release,
    files: sorted,
    stats: {
      types: types.typeCount,
      resources: resources.resourceCount,
      groups: resources.groupCount,
      protoMessages: proto.messageCount,
      wireFactFields: wireFacts.fieldCount,
    },
  };
}

function emitRelease(info: GenerationInfo): string {
  return [
    header(info, "k8s-release.json"),
    "/** The Kubernetes release these models were generated from. */",
    `export const kubernetesRelease = ${JSON.stringify(info.kubernetes)};`,
    "",
  ].join("\n");
}
