/**
 * A seeded generator of malformed API requests for the hardening fuzz test and the soak
 * benchmark: bodies (truncated, garbage, deeply nested, huge numbers, wrong types, YAML tricks),
 * patches of every type (JSON patch with copy/move chains), odd paths, bad query parameters and
 * odd headers, all aimed at one namespace. Every request is a plain value, so a failing one can be
 * printed and replayed from its seed.
 */
export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Buffer;
}

export type Rand = () => number;

/** A seeded PRNG, so a run replays exactly under its seed. */
export { prng as rng } from "./prng.js";

const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const chance = (r: Rand, p: number): boolean => r() < p;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/** The objects the fuzz namespace holds before fuzzing (names used as targets). */
export const FUZZ_TARGETS = { configmap: "target", secret: "s1", controllerrevision: "cr1" } as const;

const COLLECTIONS = [
  ["api/v1", "configmaps", FUZZ_TARGETS.configmap],
  ["api/v1", "secrets", FUZZ_TARGETS.secret],
  ["apis/apps/v1", "controllerrevisions", FUZZ_TARGETS.controllerrevision],
] as const;

const ODD_NAMES = [
  "%2e%2e",
  "a%2Fb",
  "%ff",
  "%00",
  "%",
  "..",
  ".",
  "UPPER",
  "x".repeat(300),
  "target;x",
  "tar%20get",
  "%E2%82%AC",
  "target/status",
  "target/scale",
  "target/foo/bar",
  "target/",
  "",
];

function fuzzPath(r: Rand, ns: string, method: string): string {
  const [prefix, resource, existing] = pick(r, COLLECTIONS);
  const base = `/${prefix}/namespaces/${ns}/${resource}`;
  const roll = r();
  if (roll < 0.2 || (method === "POST" && roll < 0.7)) return base;
  if (roll < 0.6) return `${base}/${existing}`;
  if (roll < 0.75) return `${base}/fz-${int(r, 0, 30)}`;
  if (roll < 0.95) return `${base}/${pick(r, ODD_NAMES)}`;
  return pick(r, [
    `//${prefix}/namespaces/${ns}/${resource}`,
    `/${prefix}/namespaces/${ns}/./${resource}`,
    `/${prefix}/namespaces/${ns}/${resource}/%2e%2e/%2e%2e/secrets`,
    `/${prefix}/namespaces/%2e%2e/${resource}`,
    `/${prefix}//namespaces/${ns}/${resource}`,
    `/${prefix}/namespaces/${ns}/${resource}/${existing}/status/extra`,
  ]);
}

const QUERY_VALUES: Record<string, readonly string[]> = {
  dryRun: ["All", "bogus", "", "All&dryRun=All"],
  fieldManager: ["", "x".repeat(200), "m\u0001", "kubectl"],
  fieldValidation: ["Strict", "Warn", "Ignore", "Bogus", ""],
  force: ["true", "maybe", ""],
  resourceVersion: ["abc", "-1", "99999999999999999999", "0", "1", "", "1e3"],
  resourceVersionMatch: ["Exact", "NotOlderThan", "bogus"],
  limit: ["-1", "abc", "1e3", "99999999999", "0", "1"],
  continue: ["garbage", "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiLi4vIn0", "%ZZ"],
  labelSelector: ["a in (", "a=b,c!=", "!!", `a=${"b".repeat(100)}`, "a notin (x)"],
  fieldSelector: ["metadata.name=", "spec.bogus=1", "metadata.name==x", "a=b=c"],
  timeoutSeconds: ["-5", "abc", "99999999999999999999"],
  watch: ["bogus", "1", "false"],
  pretty: ["maybe", "true"],
  propagationPolicy: ["Bogus", "Orphan", "Foreground"],
  gracePeriodSeconds: ["-1", "abc", "99999999999999999999"],
  orphanDependents: ["maybe", "true"],
  allowWatchBookmarks: ["x"],
  sendInitialEvents: ["true", "nope"],
  "%zz": ["1"],
};

function fuzzQuery(r: Rand): string {
  if (chance(r, 0.6)) return "";
  const keys = Object.keys(QUERY_VALUES);
  const parts: string[] = [];
  for (let i = int(r, 1, 3); i > 0; i--) {
    const key = pick(r, keys);
    const value = pick(r, QUERY_VALUES[key] as readonly string[]);
    parts.push(`${key}=${value.includes("&") ? value : encodeURIComponent(value)}`);
  }
  // Watches never end on their own; a timeout keeps a 2xx watch short.
  if (parts.some((p) => p.startsWith("watch="))) parts.push("timeoutSeconds=1");
  return `?${parts.join("&")}`;
}

const BODY_TYPES = [
  "application/json",
  "application/json",
  "application/yaml",
  "application/vnd.kubernetes.protobuf",
];
const PATCH_TYPES = [
  "application/json-patch+json",
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
  "application/apply-patch+yaml",
];
const ODD_TYPES = [
  "application/apply-patch+cbor",
  "text/plain",
  "application/json; charset=latin1",
  "application/json;;;",
  "",
];

const ACCEPTS = [
  "application/json",
  "application/yaml",
  "application/vnd.kubernetes.protobuf",
  "application/json;as=Table;g=meta.k8s.io;v=v1",
  "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
  "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
  "application/json;as=Bogus;g=x;v=y",
  "text/html",
  "*/*",
  "application/json;q=abc",
  ",,,",
];

function fuzzHeaders(r: Rand, contentType: string | undefined): Record<string, string> {
  const h: Record<string, string> = {};
  if (contentType !== undefined && contentType !== "") h["content-type"] = contentType;
  if (chance(r, 0.3)) h.accept = pick(r, ACCEPTS);
  if (chance(r, 0.06)) h["impersonate-user"] = pick(r, ["system:anonymous", "someone", ""]);
  if (chance(r, 0.04)) h["impersonate-group"] = pick(r, ["system:masters", "g"]);
  if (chance(r, 0.03)) h["impersonate-uid"] = "u-1";
  if (chance(r, 0.03)) h["impersonate-extra-%zz"] = "v";
  if (chance(r, 0.03)) h["x-huge"] = "h".repeat(int(r, 1, 64) * 1024);
  if (chance(r, 0.03)) h["content-encoding"] = pick(r, ["gzip", "br", "identity"]);
  if (chance(r, 0.03)) h.authorization = pick(r, ["Bearer nope", "Basic Zm9vOmJhcg==", "Bearer"]);
  return h;
}

/** A valid-looking object of the kind the path names (or a ConfigMap), possibly mutated. */
function objectFor(r: Rand, path: string): Record<string, unknown> {
  const kinds: Array<[string, string, string, Record<string, unknown>]> = [
    ["/secrets", "v1", "Secret", { data: { k: "dg==" }, type: "Opaque" }],
    ["/controllerrevisions", "apps/v1", "ControllerRevision", { revision: 2, data: { k: "v" } }],
    ["", "v1", "ConfigMap", { data: { k: "v" } }],
  ];
  const [, apiVersion, kind, rest] = kinds.find(([p]) => path.includes(p)) as (typeof kinds)[number];
  const existing = Object.values(FUZZ_TARGETS).find((n) => path.split("?")[0]?.endsWith(`/${n}`));
  const name = existing && chance(r, 0.8) ? existing : `fz-${int(r, 0, 30)}`;
  const obj: Record<string, unknown> = { apiVersion, kind, metadata: { name, labels: { a: "b" } }, ...rest };
  if (chance(r, 0.5)) mutate(r, obj);
  return obj;
}

const ODD_VALUES: readonly unknown[] = [
  5,
  -0,
  1.5,
  1e308,
  null,
  true,
  [],
  {},
  "",
  [1, "a", null],
  { a: { b: [] } },
  "x".repeat(5000),
  "\u0000\ud800",
];

/** Puts an odd value somewhere in the object (wrong types, huge numbers, nulls). */
function mutate(r: Rand, obj: Record<string, unknown>): void {
  const path = pick(r, [
    ["metadata"],
    ["metadata", "name"],
    ["metadata", "labels"],
    ["metadata", "labels", "a"],
    ["metadata", "annotations"],
    ["metadata", "resourceVersion"],
    ["metadata", "finalizers"],
    ["metadata", "ownerReferences"],
    ["metadata", "managedFields"],
    ["metadata", "generateName"],
    ["data"],
    ["data", "k"],
    // Keys named like Object.prototype's properties are ordinary keys (test/server/prototype-keys.test.ts).
    ["data", "__proto__"],
    ["data", "constructor"],
    ["data", "valueOf"],
    ["metadata", "labels", "toString"],
    ["metadata", "annotations", "hasOwnProperty"],
    ["binaryData"],
    ["immutable"],
    ["kind"],
    ["apiVersion"],
    ["revision"],
    ["stringData"],
    ["type"],
    ["unknownField"],
  ]);
  let at: Record<string, unknown> = obj;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== "object" || at[key] === null || Array.isArray(at[key])) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  // Defined, not assigned: a "__proto__" key is sent as a key.
  Object.defineProperty(at, path[path.length - 1] as string, {
    value: pick(r, ODD_VALUES),
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

const YAML_TRICKS = [
  "metadata: &m {name: y1}\ndata: *m\n",
  "a: &a [x, x, x]\nb: &b [*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b]\nd: [*c, *c, *c, *c]\nmetadata: {name: y2}\n",
  "metadata: {name: y3}\ndata: {k: !!binary aGVsbG8=}\n",
  "metadata: {name: y4}\ndata: !!set {a, b}\n",
  "metadata: {name: y5}\ndata: !!omap [a: 1, b: 2]\n",
  "metadata: {name: y6, name: y7}\n",
  "base: &b {k: v}\nmetadata: {name: y8}\ndata: {<<: *b}\n",
  "metadata: {name: y9}\ndata: !!python/object:os.system {}\n",
  "metadata: {name: y10}\ndata: !custom {k: v}\n",
  "---\nmetadata: {name: y11}\n---\nmetadata: {name: y12}\n",
  "metadata:\n\tname: y13\n",
  "metadata: {name: y14}\ndata: {k: 0x1F, j: 1_000, i: .inf, n: .nan, o: 0o17}\n",
  "metadata: {name: y15}\nrevision: 99999999999999999999999\n",
  "a: &a [*a]\n",
  "metadata: {name: y16}\ndata: {? [a, b] : c}\n",
  "metadata: {name: y17}\ndata: {k: 2001-12-14t21:59:43.10-05:00}\n",
  "%YAML 1.1\n%TAG ! tag:x,2000:\n---\nmetadata: {name: y18}\n",
  "metadata: {name: y19}\ndata: {yes: no, on: off, ~: null}\n",
  "[",
  ": : :",
  "metadata: {name: 'y20\n",
];

function jsonPatch(r: Rand): unknown[] {
  const ops: unknown[] = [];
  const paths = [
    "/data",
    "/data/k",
    "/data/~1x",
    "/data/~2",
    "/data/__proto__",
    "/data/constructor",
    "/data/toString",
    "/metadata/__proto__/polluted",
    "/constructor/prototype",
    "/metadata/labels/a",
    "/metadata/finalizers/-",
    "/metadata/finalizers/99999999999",
    "/metadata/finalizers/01",
    "/metadata/finalizers/-1",
    "/metadata/name",
    "/metadata/resourceVersion",
    "",
    "/",
    "data",
    "/kind",
  ];
  for (let i = int(r, 1, 8); i > 0; i--) {
    const op = pick(r, ["add", "remove", "replace", "move", "copy", "test", "bogus"]);
    const o: Record<string, unknown> = { op, path: pick(r, paths) };
    if (op === "move" || op === "copy") o.from = pick(r, paths);
    if (op !== "remove" && chance(r, 0.8)) o.value = pick(r, ODD_VALUES);
    ops.push(o);
  }
  if (chance(r, 0.2)) {
    // A copy chain that doubles the data each step (bounded by the copy limit).
    ops.push({ op: "add", path: "/data/c0", value: "x".repeat(1024) });
    for (let i = 1; i < int(r, 10, 40); i++)
      ops.push({ op: "copy", from: `/data/c${i - 1}`, path: `/data/c${i}` });
  }
  if (chance(r, 0.05))
    for (let i = 0; i < 10_001; i++) ops.push({ op: "test", path: "/kind", value: "ConfigMap" });
  return ops;
}

function strategicPatch(r: Rand): unknown {
  return pick(r, [
    { $patch: "delete" },
    { $patch: "replace", data: { k: "v2" } },
    { metadata: { $patch: "bogus" } },
    { $retainKeys: ["data"], data: { k: "v" } },
    { $setElementOrder: { finalizers: ["a"] } },
    { metadata: { $deleteFromPrimitiveList: { finalizers: ["a"] } } },
    { metadata: { finalizers: [{ $patch: "delete" }] } },
    { data: { $patch: "delete" } },
    { "$setElementOrder/data": [1, 2] },
    { metadata: { ownerReferences: [{ $patch: "merge" }] } },
  ]);
}

function deep(r: Rand): string {
  const n = int(r, 300, 1200);
  return `{"metadata":{"name":"deep"},"data":${'{"a":'.repeat(n)}1${"}".repeat(n)}}`;
}

const TRUNCATIONS = [
  '{"metadata":{"name":"t"',
  "{",
  '{"a":1,}',
  "\ufeff{}",
  "nul",
  "[1,2",
  '"str"',
  "null",
  "[]",
  "",
];

/** A body for the content type, valid-looking or not. */
function fuzzBody(r: Rand, contentType: string, path: string): string | Buffer {
  const roll = r();
  if (roll < 0.05) return Buffer.from(Array.from({ length: int(r, 1, 200) }, () => int(r, 0, 255)));
  if (roll < 0.1)
    return Buffer.concat([
      Buffer.from("k8s\u0000"),
      Buffer.from(Array.from({ length: int(r, 0, 64) }, () => int(r, 0, 255))),
    ]);
  if (roll < 0.15) return deep(r);
  if (roll < 0.22) return pick(r, TRUNCATIONS);
  if (roll < 0.27) return Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]);
  if (roll < 0.3) return '{"metadata":{"name":"n","name":"m"},"data":{"k":"a","k":"b"}}';
  if (roll < 0.33)
    return `{"metadata":{"name":"num"},"revision":${pick(r, ["1e400", "99999999999999999999", "-0", "1.0", "0x10", "NaN"])}}`;
  if (contentType.includes("yaml") && roll < 0.6) return pick(r, YAML_TRICKS);
  if (contentType === "application/json-patch+json") return JSON.stringify(jsonPatch(r));
  if (contentType === "application/strategic-merge-patch+json") return JSON.stringify(strategicPatch(r));
  const obj = objectFor(r, path);
  const text = JSON.stringify(obj);
  if (chance(r, 0.1)) return text.slice(0, int(r, 0, text.length - 1));
  return text;
}

const METHODS = ["GET", "POST", "POST", "PUT", "PUT", "PATCH", "PATCH", "PATCH", "PATCH", "DELETE"];

function contentTypeFor(r: Rand, method: string): string {
  if (chance(r, 0.1)) return pick(r, ODD_TYPES);
  return pick(r, method === "PATCH" ? PATCH_TYPES : BODY_TYPES);
}

export function fuzzRequest(r: Rand, ns: string): FuzzRequest {
  const method = chance(r, 0.03) ? pick(r, ["OPTIONS", "FOO", "TRACE"]) : pick(r, METHODS);
  const path = fuzzPath(r, ns, method) + fuzzQuery(r);
  const sendsBody = method === "POST" || method === "PUT" || method === "PATCH" || chance(r, 0.1);
  const contentType = sendsBody ? contentTypeFor(r, method) : undefined;
  const headers = fuzzHeaders(r, contentType);
  if (!sendsBody) return { method, path, headers };
  return { method, path, headers, body: fuzzBody(r, contentType ?? "", path) };
}

/** A one-line description of a request for failure messages. */
export function describeRequest(req: FuzzRequest): string {
  const body =
    req.body === undefined
      ? ""
      : ` body=${JSON.stringify((Buffer.isBuffer(req.body) ? req.body.toString("latin1") : req.body).slice(0, 300))}`;
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, v.slice(0, 100)]));
  return `${req.method} ${req.path.slice(0, 300)} headers=${JSON.stringify(headers)}${body}`;
}
