/**
 * The OpenAPI v3 documents the server publishes: one per served
 * group/version (`api/v1`, `apis/apps/v1`, `apis/<crd group>/<version>`),
 * built from what the ResourceTable serves right now — built-in kinds from
 * the schema metadata, custom resources from their CRD schemas — each with
 * the SHA-512 hash clients use to cache it. Documents are cached by the
 * served resources they describe, so a CRD change produces a new hash.
 */
import { createHash } from "node:crypto";
import { schemaFor } from "@kubesdk/models";
import type { ServedResource } from "../resources/served.js";
import type { ResourceTable } from "../resources/table.js";
import { ComponentSet, type OpenApiSchema } from "./components.js";
import { customKindSchema, customListSchema } from "./custom-schemas.js";
import { DOCUMENT_HEAD, resourcePaths } from "./paths.js";
import { swaggerV2 } from "./swagger-v2.js";

const META = "io.k8s.apimachinery.pkg.apis.meta.v1";
const SCALE = "io.k8s.api.autoscaling.v1.Scale";
const ALWAYS = [
  `${META}.DeleteOptions`,
  `${META}.Status`,
  `${META}.Patch`,
  `${META}.ObjectMeta`,
  `${META}.ListMeta`,
];

export interface PublishedDocument {
  /**
   * Upper-case hex SHA-512, as kube-openapi's ETag — here of what the document is built from (the
   * served resources and their schemas), so listing the index needs no document built.
   */
  readonly hash: string;
  /** The document as JSON, built on first use. */
  json(): Buffer;
  /** The document itself (shared: not to be modified). */
  value(): OpenApiSchema;
}

/** `api/v1` or `apis/<group>/<version>`. */
export function groupVersionPath(group: string, version: string): string {
  return group === "" ? `api/${version}` : `apis/${group}/${version}`;
}

/** Component name of a custom resource kind: the reversed group, version, kind (com.example.stable.v1.CronTab). */
export function customComponentName(group: string, version: string, kind: string): string {
  return `${group.split(".").reverse().join(".")}.${version}.${kind}`;
}

/** Upper-case hex SHA-512, kube-openapi's ETag and hash parameter. */
export function etagOf(data: Buffer): string {
  return createHash("sha512").update(data).digest("hex").toUpperCase();
}

export class OpenApiDocuments {
  private readonly cache = new Map<string, { fingerprint: string; doc: PublishedDocument }>();
  private swagger: PublishedDocument | undefined;

  constructor(private readonly table: ResourceTable) {}

  /** Every served group/version path with its current document hash. */
  index(): Record<string, { serverRelativeURL: string }> {
    const out: Record<string, { serverRelativeURL: string }> = {};
    for (const g of this.table.groups())
      for (const v of g.versions) {
        const p = groupVersionPath(g.group, v);
        const doc = this.document(g.group, v);
        if (doc) out[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${doc.hash}` };
      }
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** The Swagger 2.0 document of everything served (`/openapi/v2`), rebuilt when any part changes. */
  v2(): PublishedDocument {
    const parts: PublishedDocument[] = [];
    for (const g of this.table.groups())
      for (const v of g.versions) {
        const doc = this.document(g.group, v);
        if (doc) parts.push(doc);
      }
    const hash = etagOf(Buffer.from(`v2\n${parts.map((d) => d.hash).join("\n")}`));
    if (this.swagger?.hash === hash) return this.swagger;
    let value: OpenApiSchema | undefined;
    let built: Buffer | undefined;
    const doc: PublishedDocument = {
      hash,
      value: () => {
        value ??= withCustomV2(
          swaggerV2(parts.map((d) => d.value())),
          [...this.table.all()].filter((r) => r.custom !== undefined),
        );
        return value;
      },
      json: () => {
        built ??= Buffer.from(JSON.stringify(doc.value()));
        return built;
      },
    };
    this.swagger = doc;
    return doc;
  }

  /** The document of a path such as `apis/apps/v1`; undefined when nothing is served there. */
  byPath(p: string): PublishedDocument | undefined {
    const parts = p.split("/").filter(Boolean);
    if (parts[0] === "api" && parts.length === 2) return this.document("", parts[1] as string);
    if (parts[0] === "apis" && parts.length === 3)
      return this.document(parts[1] as string, parts[2] as string);
    return undefined;
  }

  private document(group: string, version: string): PublishedDocument | undefined {
    if (!this.table.hasGroupVersion(group, version)) return undefined;
    const resources = this.table.resourcesIn(group, version);
    const fingerprint = JSON.stringify(
      resources.map((r) => [
        r.resource,
        r.kind,
        r.listKind,
        r.namespaced,
        [...r.verbs],
        [...r.subresources.keys()],
        r.custom?.schema ?? null,
      ]),
    );
    const key = groupVersionPath(group, version);
    const hit = this.cache.get(key);
    if (hit && hit.fingerprint === fingerprint) return hit.doc;
    let value: OpenApiSchema | undefined;
    let built: Buffer | undefined;
    const doc: PublishedDocument = {
      hash: etagOf(Buffer.from(`${key}\n${fingerprint}`)),
      value: () => {
        value ??= build(resources);
        return value;
      },
      json: () => {
        built ??= Buffer.from(JSON.stringify(doc.value()));
        return built;
      },
    };
    this.cache.set(key, { fingerprint, doc });
    return doc;
  }
}

function build(resources: readonly ServedResource[]): OpenApiSchema {
  const components = new ComponentSet();
  for (const name of ALWAYS) components.add(name);
  const paths: Record<string, unknown> = {};
  for (const r of resources) {
    const names = r.custom ? addCustom(components, r) : addBuiltin(components, r);
    if (!names) continue;
    if (r.subresources.has("scale")) components.add(SCALE);
    Object.assign(paths, resourcePaths(r, names, SCALE));
  }
  return {
    ...DOCUMENT_HEAD,
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    components: {
      schemas: components.toObject(),
      securitySchemes: { BearerToken: { in: "header", name: "authorization", type: "apiKey" } },
    },
  };
}

function addBuiltin(components: ComponentSet, r: ServedResource): { kind: string; list: string } | undefined {
  const kind = schemaFor({ group: r.group, version: r.version, kind: r.kind })?.name;
  const list = schemaFor({ group: r.group, version: r.version, kind: r.listKind })?.name;
  if (!kind) return undefined;
  components.add(kind);
  if (list) components.add(list);
  return { kind, list: list ?? kind };
}

/** A custom resource's kind and list as published in v3 (custom-schemas.ts). */
function addCustom(components: ComponentSet, r: ServedResource): { kind: string; list: string } {
  const kind = customComponentName(r.group, r.version, r.kind);
  const list = customComponentName(r.group, r.version, r.listKind);
  components.put(kind, customKindSchema(r, "v3"));
  components.put(list, customListSchema(r, kind, "v3"));
  return { kind, list };
}

/** The v2 document's definitions of custom resources, in v2's flavour instead of v3's. */
function withCustomV2(doc: OpenApiSchema, resources: readonly ServedResource[]): OpenApiSchema {
  const definitions = { ...(doc.definitions as Record<string, unknown>) };
  for (const r of resources) {
    const kind = customComponentName(r.group, r.version, r.kind);
    definitions[kind] = customKindSchema(r, "v2");
    definitions[customComponentName(r.group, r.version, r.listKind)] = customListSchema(r, kind, "v2");
  }
  return { ...doc, definitions };
}
