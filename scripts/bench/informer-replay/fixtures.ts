/**
 * The bytes the replay server sends, encoded once before any contender runs: list pages of any
 * limit (with continue tokens, see list-pages.ts) and the full list, a watch stream of MODIFIED
 * events and a streaming list, each in JSON and (through @kubesdk/models' wire codec) in protobuf.
 */
import { encodeObject, encodeWatchEvent } from "@kubesdk/models";
import { type Encoded, ListPages } from "./list-pages.js";

export type { Encoded } from "./list-pages.js";

export const NAMESPACE = "bench";
export const LIST_PATH = `/api/v1/namespaces/${NAMESPACE}/configmaps`;
export const LIST_RESOURCE_VERSION = 1_000_000;

export interface Sizes {
  readonly objects: number;
  readonly events: number;
}

type ConfigMap = {
  apiVersion?: string;
  kind?: string;
  metadata: Record<string, unknown> & { name: string; namespace: string };
  data: Record<string, string>;
};

/** ~1 KiB: a few labels and eight data entries of 100 characters. */
export function configMap(i: number, resourceVersion: number, typed: boolean): ConfigMap {
  const name = `cm-${String(i).padStart(6, "0")}`;
  const data: Record<string, string> = {};
  for (let k = 0; k < 8; k++)
    data[`key-${k}`] = `${name}-${k}-${resourceVersion}-`.padEnd(
      100,
      String.fromCharCode(97 + ((i + k) % 26)),
    );
  return {
    ...(typed ? { apiVersion: "v1", kind: "ConfigMap" } : {}),
    metadata: {
      name,
      namespace: NAMESPACE,
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      resourceVersion: String(resourceVersion),
      creationTimestamp: "2026-01-01T00:00:00Z",
      labels: { app: "bench", shard: String(i % 32) },
    },
    data,
  };
}

export interface Fixtures {
  readonly sizes: Sizes;
  /** List pages by first block and limit. */
  readonly pages: ListPages<ConfigMap>;
  readonly fullList: Encoded;
  /** `events` MODIFIED events cycling over the objects, resourceVersions above the list's. */
  readonly watch: Encoded;
  /** A streaming list: ADDED per object, then the bookmark that ends the initial state. */
  readonly initialEvents: Encoded;
}

function fullList(items: ConfigMap[]): Encoded {
  const body = {
    apiVersion: "v1",
    kind: "ConfigMapList",
    metadata: { resourceVersion: String(LIST_RESOURCE_VERSION) },
    items,
  };
  return { json: Buffer.from(JSON.stringify(body)), protobuf: Buffer.from(encodeObject(body)) };
}

function lengthPrefixed(frame: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(4 + frame.length);
  out.writeUInt32BE(frame.length, 0);
  out.set(frame, 4);
  return out;
}

export function buildFixtures(sizes: Sizes): Fixtures {
  const items = Array.from({ length: sizes.objects }, (_, i) => configMap(i, 1 + i, false));
  const pages = new ListPages(items, String(LIST_RESOURCE_VERSION));

  const json: Buffer[] = [];
  const protobuf: Buffer[] = [];
  for (let k = 0; k < sizes.events; k++) {
    const object = configMap(k % sizes.objects, LIST_RESOURCE_VERSION + 1 + k, true);
    json.push(Buffer.from(`${JSON.stringify({ type: "MODIFIED", object })}\n`));
    protobuf.push(lengthPrefixed(encodeWatchEvent({ type: "MODIFIED", object })));
  }
  const added = items.map((o) => ({
    type: "ADDED" as const,
    object: { apiVersion: "v1", kind: "ConfigMap", ...o },
  }));
  const initial: Buffer[] = added.map((e) => Buffer.from(`${JSON.stringify(e)}\n`));
  const initialProtobuf: Buffer[] = added.map((e) => lengthPrefixed(encodeWatchEvent(e)));
  const bookmark = {
    type: "BOOKMARK" as const,
    object: {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        resourceVersion: String(LIST_RESOURCE_VERSION),
        annotations: { "k8s.io/initial-events-end": "true" },
      },
    },
  };
  initial.push(Buffer.from(`${JSON.stringify(bookmark)}\n`));
  initialProtobuf.push(lengthPrefixed(encodeWatchEvent(bookmark)));
  return {
    sizes,
    pages,
    fullList: fullList(items),
    watch: { json: Buffer.concat(json), protobuf: Buffer.concat(protobuf) },
    initialEvents: { json: Buffer.concat(initial), protobuf: Buffer.concat(initialProtobuf) },
  };
}
