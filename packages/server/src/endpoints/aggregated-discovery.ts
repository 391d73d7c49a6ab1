/**
 * Aggregated discovery (apidiscovery.k8s.io/v2): `/api` and `/apis` answered with every group,
 * version and resource in one APIGroupDiscoveryList when the client asks for it in Accept
 * (kubectl and client-go do since 1.30), instead of one request per group version. Shaped as
 * kube-apiserver 1.37.1 answers: versions in preference order, resources, verbs and subresources
 * sorted, `responseKind` empty where it is the resource's own group and version, a strong ETag over
 * the body (a matching If-None-Match gets 304), `Vary: Accept`. v2beta1 is no longer served (406).
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { encodeObject } from "@kubesdk/models";
import { failure } from "../api/status.js";
import { parseAccept } from "../http/negotiate.js";
import { metricsGroup, metricsResourceList } from "../pods/metrics.js";
import type { ServedResource } from "../resources/served.js";
import type { ResourceTable } from "../resources/table.js";

type Json = Record<string, unknown>;

const GROUP = "apidiscovery.k8s.io";
const LIST = "APIGroupDiscoveryList";
const PARAMS = `;g=${GROUP};v=v2;as=${LIST}`;
export const AGGREGATED_TYPE = `application/json${PARAMS}`;
const AGGREGATED_PROTOBUF = `application/vnd.kubernetes.protobuf${PARAMS}`;
const LEGACY_TYPES = [
  "application/json",
  "application/*",
  "*/*",
  "application/yaml",
  "application/vnd.kubernetes.protobuf",
];

export type DiscoveryFormat = "aggregated-json" | "aggregated-protobuf" | "legacy" | "none";

/** What Accept asks of `/api` or `/apis`: the aggregated list (JSON or protobuf), the legacy document, or nothing served. */
export function discoveryFormat(accept: string | undefined): DiscoveryFormat {
  if (!accept || accept.trim() === "") return "legacy";
  for (const r of parseAccept(accept)) {
    const as = r.params.get("as");
    if (as === undefined) {
      if (LEGACY_TYPES.includes(r.type)) return "legacy";
      continue;
    }
    if (as !== LIST || r.params.get("g") !== GROUP || r.params.get("v") !== "v2") continue;
    if (r.type === "application/vnd.kubernetes.protobuf") return "aggregated-protobuf";
    if (r.type === "application/json" || r.type === "*/*") return "aggregated-json";
  }
  return "none";
}

function responseKind(r: ServedResource, s?: { group?: string; version?: string; kind: string }): Json {
  const group = s?.group ?? r.group;
  const version = s?.version ?? r.version;
  const own = group === r.group && version === r.version;
  return { group: own ? "" : group, version: own ? "" : version, kind: s ? s.kind : r.kind };
}

function resourceEntry(r: ServedResource): Json {
  const entry: Json = {
    resource: r.resource,
    responseKind: responseKind(r),
    scope: r.namespaced ? "Namespaced" : "Cluster",
    singularResource: r.singular,
    verbs: [...r.verbs].sort(),
  };
  if (r.shortNames.length > 0) entry.shortNames = [...r.shortNames];
  if (r.categories.length > 0) entry.categories = [...r.categories];
  const subs = [...r.subresources.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  if (subs.length > 0)
    entry.subresources = subs.map((s) => ({
      subresource: s.name,
      responseKind: responseKind(r, s),
      verbs: [...s.verbs].sort(),
    }));
  return entry;
}

function versionEntry(table: ResourceTable, group: string, version: string): Json {
  const resources = table
    .resourcesIn(group, version)
    .map(resourceEntry)
    .sort((a, b) => (String(a.resource) < String(b.resource) ? -1 : 1));
  return { version, resources, freshness: "Current" };
}

/** metrics.k8s.io, served here as an aggregated API would be. */
function metricsItem(): Json {
  const group = metricsGroup() as { name: string; preferredVersion: { version: string } };
  const list = metricsResourceList() as {
    resources: { name: string; kind: string; namespaced: boolean; verbs: string[] }[];
  };
  const resources = list.resources.map((r) => ({
    resource: r.name,
    responseKind: { group: "", version: "", kind: r.kind },
    scope: r.namespaced ? "Namespaced" : "Cluster",
    singularResource: "",
    verbs: [...r.verbs].sort(),
  }));
  return {
    metadata: { name: group.name },
    versions: [{ version: group.preferredVersion.version, resources, freshness: "Current" }],
  };
}

export function aggregatedDiscovery(table: ResourceTable, legacy: boolean): Json {
  // Built-in groups keep upstream's order; custom resource groups follow sorted by name, as
  // kube-apiserver orders groups of equal priority here (the legacy /apis lists them as registered).
  const all = table.groups().filter((g) => (g.group === "") === legacy);
  const custom = (g: { group: string; preferred: string }) =>
    table.resourcesIn(g.group, g.preferred).some((r) => r.custom !== undefined);
  const groups = [
    ...all.filter((g) => !custom(g)),
    ...all.filter(custom).sort((a, b) => (a.group < b.group ? -1 : 1)),
  ];
  const items = groups.map((g) => ({
    metadata: legacy ? {} : { name: g.group },
    // The preferred version first, then the others as the group lists them.
    versions: [g.preferred, ...g.versions.filter((v) => v !== g.preferred)].map((v) =>
      versionEntry(table, g.group, v),
    ),
  }));
  if (!legacy) items.push(metricsItem() as (typeof items)[number]);
  return { kind: LIST, apiVersion: `${GROUP}/v2`, metadata: {}, items };
}

/**
 * Writes the aggregated document in JSON or protobuf, or 304 when the client's ETag still matches.
 * The ETag is a hash of the JSON form whichever encoding is sent: the document is the same.
 */
export function serveAggregated(
  req: IncomingMessage,
  res: ServerResponse,
  doc: Json,
  format: "aggregated-json" | "aggregated-protobuf",
): void {
  const json = JSON.stringify(doc);
  const etag = `"${createHash("sha512").update(json).digest("hex").toUpperCase()}"`;
  const headers = { "Cache-Control": "public", ETag: etag, Vary: "Accept" };
  if (req.headers["if-none-match"] === etag) {
    res.writeHead(304, headers).end();
    return;
  }
  const protobuf = format === "aggregated-protobuf";
  const body = protobuf ? Buffer.from(encodeObject(doc)) : json;
  res
    .writeHead(200, { ...headers, "Content-Type": protobuf ? AGGREGATED_PROTOBUF : AGGREGATED_TYPE })
    .end(body);
}

export function notAcceptable(): Error {
  return failure(
    406,
    "NotAcceptable",
    `only the following media types are accepted: ${AGGREGATED_TYPE}, application/json, application/yaml, application/vnd.kubernetes.protobuf`,
  );
}
