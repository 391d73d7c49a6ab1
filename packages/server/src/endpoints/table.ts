/**
 * Table and metadata-only renderings (docs/api-semantics.md §5): the server-side printing
 * kubectl asks for. Built-ins get their kind's columns (tables/), or the default ones
 * (Name, Created At); custom resources their additionalPrinterColumns.
 */

import { errors } from "../api/status.js";
import { columnDescription, customCell } from "../crd/printer-cells.js";
import type { Shape } from "../http/negotiate.js";
import type { ServedResource } from "../resources/served.js";
import type { MvccStore } from "../storage/mvcc.js";
import { builtinPrinter, defaultColumnDescriptions } from "../tables/builtin.js";
import { type KubeObject, objectKey } from "./handlers/context.js";

type IncludeObject = "None" | "Metadata" | "Object";

export function parseIncludeObject(q: URLSearchParams): IncludeObject {
  const v = q.get("includeObject") ?? "Metadata";
  if (v !== "None" && v !== "Metadata" && v !== "Object")
    throw errors.badRequest(
      `includeObject: Unsupported value: "${v}": supported values: "Metadata", "None", "Object"`,
    );
  return v;
}

function partial(obj: KubeObject, version: string): Record<string, unknown> {
  return { kind: "PartialObjectMetadata", apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata };
}

function columnsFor(r: ServedResource): Array<{
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
  jsonPath?: string;
}> {
  if (r.custom && r.custom.printerColumns.length > 0) {
    return [
      { name: "Name", type: "string", format: "name", description: "", priority: 0 },
      ...r.custom.printerColumns.map((c) => ({
        name: c.name,
        type: c.type,
        format: c.format ?? "",
        description: columnDescription(c),
        priority: c.priority ?? 0,
        jsonPath: c.jsonPath,
      })),
    ];
  }
  const docs = r.custom ? { name: "", createdAt: "" } : defaultColumnDescriptions();
  return [
    { name: "Name", type: "string", format: "name", description: docs.name, priority: 0 },
    {
      name: "Created At",
      type: "date",
      format: "",
      description: docs.createdAt,
      priority: 0,
      jsonPath: ".metadata.creationTimestamp",
    },
  ];
}

function readJsonPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const seg of path.replace(/^\./, "").split(".")) {
    if (seg === "") continue;
    cur = (cur as Record<string, unknown> | undefined)?.[seg];
  }
  return cur ?? null;
}

/** The stored form of a presented object, when the store still holds that revision of it. */
export type StoredLookup = (o: KubeObject) => KubeObject | undefined;

function storedLookup(r: ServedResource, store: Pick<MvccStore, "get">): StoredLookup {
  return (o) => {
    const { namespace, name } = o.metadata as { namespace?: string; name: string };
    const found = store.get(r.bucket, objectKey(r, namespace, name)) as KubeObject | undefined;
    return found?.metadata.resourceVersion === o.metadata.resourceVersion ? found : undefined;
  };
}

/**
 * What a built-in printer reads: a version stored as another (autoscaling/v1 HPAs) is printed from the
 * stored object, as upstream prints the internal one; converted back when that revision is gone.
 */
function printedForm(r: ServedResource, o: KubeObject, storedOf?: StoredLookup): KubeObject {
  if (!r.convert?.betweenVersions) return o;
  return storedOf?.(o) ?? (r.convert.toStored(o) as KubeObject);
}

/** One table for a list or a single object; `withColumns` false for watch events after the first. */
export function renderTable(
  r: ServedResource,
  objects: readonly KubeObject[],
  listMeta: Record<string, unknown>,
  include: IncludeObject,
  version: string,
  withColumns = true,
  storedOf?: StoredLookup,
): Record<string, unknown> {
  const printer = r.custom ? undefined : builtinPrinter(r.group, r.resource);
  const object = (o: KubeObject) =>
    include === "None" ? null : include === "Object" ? o : partial(o, version);
  if (printer) {
    const now = Date.now();
    return {
      kind: "Table",
      apiVersion: `meta.k8s.io/${version}`,
      metadata: listMeta,
      columnDefinitions: withColumns ? printer.columns : null,
      rows: (printer.order ? printer.order(objects) : objects).map((o) => ({
        ...printer.row(printedForm(r, o, storedOf), now),
        object: object(o),
      })),
    };
  }
  const cols = columnsFor(r);
  const rows = objects.map((o) => ({
    cells: cols.map((c) =>
      c.format === "name"
        ? o.metadata.name
        : r.custom
          ? customCell({ ...c, jsonPath: c.jsonPath ?? "" }, o, Date.now())
          : readJsonPath(o, c.jsonPath ?? ""),
    ),
    object: include === "None" ? null : include === "Object" ? o : partial(o, version),
  }));
  return {
    kind: "Table",
    apiVersion: `meta.k8s.io/${version}`,
    metadata: listMeta,
    columnDefinitions: withColumns ? cols.map(({ jsonPath: _j, ...c }) => c) : null,
    rows,
  };
}

/** Applies a requested shape (Table / PartialObjectMetadata[List]) to a handler's body. */
export function reshape(
  r: ServedResource,
  body: unknown,
  shape: Shape,
  version: string,
  q: URLSearchParams,
  store?: Pick<MvccStore, "get">,
): unknown {
  const b = body as KubeObject & { items?: KubeObject[] };
  if (b.kind === "Status") return body;
  const isList = Array.isArray(b.items);
  if (shape === "Table") {
    const include = parseIncludeObject(q);
    const storedOf = store && storedLookup(r, store);
    const meta = isList ? b.metadata : { resourceVersion: b.metadata.resourceVersion };
    return renderTable(r, isList ? (b.items as KubeObject[]) : [b], meta, include, version, true, storedOf);
  }
  if (isList)
    return {
      kind: "PartialObjectMetadataList",
      apiVersion: `meta.k8s.io/${version}`,
      metadata: b.metadata,
      items: (b.items as KubeObject[]).map((o) => partial(o, version)),
    };
  return partial(b, version);
}
