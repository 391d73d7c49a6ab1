/**
 * The table of API packages: which OpenAPI name prefix, API group/version, TypeScript namespace and
 * .proto file belong together. Groups come from the `+groupName=` tag in each Go package's doc.go
 * (packages without the tag use their directory name, as upstream does for apps, batch, ...).
 */
import { access, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { CodegenError } from "./errors.js";
import { compareStrings } from "./shape.js";
import type { UpstreamModule } from "./upstream.js";

export interface ProtoSource {
  readonly module: UpstreamModule;
  /** Path inside the module, e.g. "apps/v1/generated.proto". */
  readonly path: string;
}

export interface ApiPackage {
  /** OpenAPI component name prefix, e.g. "io.k8s.api.apps.v1". */
  readonly openapiPrefix: string;
  /** API group ("" for core); undefined for the apimachinery helper packages. */
  readonly group: string | undefined;
  readonly version: string | undefined;
  /** Exported TypeScript namespace, e.g. "appsV1". */
  readonly namespace: string;
  /** Generated module basename under generated/types, e.g. "apps.v1". */
  readonly typesModule: string;
  readonly proto: ProtoSource | undefined;
}

export type ModuleDirs = Readonly<Record<UpstreamModule, string>>;

const apimachineryHelpers = ["pkg.api.resource", "pkg.util.intstr", "pkg.runtime", "pkg.version"];

export async function listApiPackages(dirs: ModuleDirs): Promise<ApiPackage[]> {
  const packages: ApiPackage[] = [];
  const apiDir = dirs["k8s.io/api"];
  for (const groupDir of (await readdir(apiDir, { withFileTypes: true })).filter((d) => d.isDirectory())) {
    for (const versionDir of await readdir(join(apiDir, groupDir.name), { withFileTypes: true })) {
      if (!versionDir.isDirectory() || !/^v\d+((alpha|beta)\d+)?$/.test(versionDir.name)) continue;
      const rel = `${groupDir.name}/${versionDir.name}`;
      const group = await groupNameOf(join(apiDir, rel), groupDir.name);
      if (group === undefined) continue;
      packages.push(
        await apiPackage(dirs, "k8s.io/api", rel, `io.k8s.api.${groupDir.name}.${versionDir.name}`, group),
      );
    }
  }
  const staging: [UpstreamModule, string, string][] = [
    ["k8s.io/apimachinery", "pkg/apis/meta/v1", "io.k8s.apimachinery.pkg.apis.meta.v1"],
    ["k8s.io/apimachinery", "pkg/apis/meta/v1beta1", "io.k8s.apimachinery.pkg.apis.meta.v1beta1"],
    [
      "k8s.io/apiextensions-apiserver",
      "pkg/apis/apiextensions/v1",
      "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1",
    ],
    [
      "k8s.io/kube-aggregator",
      "pkg/apis/apiregistration/v1",
      "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1",
    ],
  ];
  for (const [module, rel, prefix] of staging) {
    const group = await groupNameOf(join(dirs[module], rel), undefined);
    if (group === undefined) throw new CodegenError("ERR_API_PACKAGE", `${module}/${rel}: no +groupName`);
    packages.push(await apiPackage(dirs, module, rel, prefix, group));
  }
  for (const helper of apimachineryHelpers) {
    packages.push({
      openapiPrefix: `io.k8s.apimachinery.${helper}`,
      group: undefined,
      version: undefined,
      namespace: "apimachinery",
      typesModule: "apimachinery",
      proto: undefined,
    });
  }
  packages.sort((a, b) => compareStrings(a.openapiPrefix, b.openapiPrefix));
  checkUnique(packages);
  return packages;
}

async function apiPackage(
  dirs: ModuleDirs,
  module: UpstreamModule,
  rel: string,
  openapiPrefix: string,
  group: string,
): Promise<ApiPackage> {
  const version = rel.split("/").at(-1) as string;
  const stem = group === "" ? "core" : (group.split(".")[0] as string);
  const protoPath = `${rel}/generated.proto`;
  const hasProto = await exists(join(dirs[module], protoPath));
  return {
    openapiPrefix,
    group,
    version,
    namespace: `${camel(stem)}${version[0]?.toUpperCase()}${version.slice(1)}`,
    typesModule: `${stem}.${version}`,
    proto: hasProto ? { module, path: protoPath } : undefined,
  };
}

/** `+groupName=` from doc.go; `fallback` when the package has no tag; undefined when not an API package. */
async function groupNameOf(dir: string, fallback: string | undefined): Promise<string | undefined> {
  let doc: string;
  try {
    doc = await readFile(join(dir, "doc.go"), "utf8");
  } catch {
    return undefined;
  }
  const tag = /^\/\/ \+groupName=(\S*)\s*$/m.exec(doc);
  return tag ? (tag[1] as string) : fallback;
}

function camel(stem: string): string {
  return stem.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function checkUnique(packages: readonly ApiPackage[]): void {
  const owner = new Map<string, string>();
  for (const pkg of packages) {
    if (pkg.group === undefined) continue;
    const previous = owner.get(pkg.namespace);
    if (previous) {
      throw new CodegenError(
        "ERR_NAME_COLLISION",
        `namespace ${pkg.namespace} would hold both ${previous} and ${pkg.openapiPrefix}`,
      );
    }
    owner.set(pkg.namespace, pkg.openapiPrefix);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** The package whose prefix is exactly the component name minus its last segment. */
export function packageOf(packages: readonly ApiPackage[], componentName: string): ApiPackage {
  const prefix = componentName.slice(0, componentName.lastIndexOf("."));
  const pkg = packages.find((p) => p.openapiPrefix === prefix);
  if (!pkg) throw new CodegenError("ERR_API_PACKAGE", `no API package for schema ${componentName}`);
  return pkg;
}
