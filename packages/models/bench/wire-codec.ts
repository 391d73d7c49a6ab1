/**
 * Protobuf codec speed against JSON, printed as ratios (not a test: timings depend on the
 * machine). Run from the repository root with `pnpm bench:codec`, or
 *
 *   node --conditions=source --import tsx packages/models/bench/wire-codec.ts [pods]
 *
 * The list is 5,000 running pods shaped like apiserver output (the pod-running Go vector, with
 * names, uids, IPs and managedFields varied per item); the watch stream is one MODIFIED event per
 * pod. Each contender runs in turn in every round; the figures are medians over the rounds.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { decodeObject, decodeWatchEvent, encodeObject, encodeWatchEvent } from "../src/index.js";

const vectors = JSON.parse(
  readFileSync(new URL("../test/wire/go/vectors.json", import.meta.url), "utf8"),
) as { objects: { name: string; json: Record<string, unknown> }[] };
const pod = vectors.objects.find((v) => v.name === "pod-running")?.json as Record<string, unknown>;
const { apiVersion: _apiVersion, kind: _kind, ...podBody } = pod;
const count = Number(process.argv[2] ?? 5000);

const items = Array.from({ length: count }, (_, i) => {
  const item = structuredClone(podBody) as {
    metadata: Record<string, unknown>;
    status: Record<string, unknown>;
  };
  item.metadata.name = `web-${i}`;
  item.metadata.uid = `0b8b2b4e-${i.toString(16).padStart(8, "0")}`;
  item.metadata.managedFields = [
    {
      manager: "kubelet",
      operation: "Update",
      apiVersion: "v1",
      time: "2026-01-02T03:04:05Z",
      fieldsType: "FieldsV1",
      fieldsV1: {
        "f:status": { "f:conditions": { ".": {}, 'k:{"type":"Ready"}': { ".": {}, "f:status": {} } } },
      },
      subresource: "status",
    },
  ];
  item.status.podIP = `10.0.${i >> 8}.${i & 255}`;
  return item;
});
const list = { apiVersion: "v1", kind: "PodList", metadata: { resourceVersion: "12345" }, items };

const listJson = Buffer.from(JSON.stringify(list));
const listPb = encodeObject(list);
const events = items.map((item) => ({
  type: "MODIFIED" as const,
  object: { apiVersion: "v1", kind: "Pod", ...item },
}));
const eventJson = events.map((event) => Buffer.from(JSON.stringify(event)));
const eventPb = events.map((event) => encodeWatchEvent(event));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
}

/** Median time of one call of each contender, the contenders interleaved round by round. */
function medianTimes<K extends string>(runs: Record<K, () => unknown>, rounds = 21): Record<K, number> {
  const times = {} as Record<K, number[]>;
  for (let round = -3; round < rounds; round++) {
    for (const name of Object.keys(runs) as K[]) {
      const start = performance.now();
      runs[name]();
      const took = performance.now() - start;
      if (round >= 0) {
        times[name] ??= [];
        times[name].push(took);
      }
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v as number[])])) as Record<
    K,
    number
  >;
}

const t = medianTimes({
  listJsonParse: () => JSON.parse(listJson.toString("utf8")),
  listDecode: () => decodeObject(listPb),
  watchJsonParse: () => {
    for (const line of eventJson) JSON.parse(line.toString("utf8"));
  },
  watchDecode: () => {
    for (const frame of eventPb) decodeWatchEvent(frame);
  },
  listJsonStringify: () => Buffer.from(JSON.stringify(list)),
  listEncode: () => encodeObject(list),
});

const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(10);
const row = (what: string, pb: number, json: number) =>
  console.log(`${what.padEnd(44)} ${ms(pb)} ${ms(json)}   ${(pb / json).toFixed(2)}`);
console.log(
  `PodList with ${count} pods: JSON ${listJson.length} bytes, protobuf ${listPb.length} bytes (medians)`,
);
console.log(`${"".padEnd(44)} ${"protobuf".padStart(10)} ${"JSON".padStart(10)}   ratio`);
row("decode list (decodeObject / JSON.parse)", t.listDecode, t.listJsonParse);
row(`decode ${count} watch events (decodeWatchEvent / JSON.parse)`, t.watchDecode, t.watchJsonParse);
row("encode list (encodeObject / JSON.stringify)", t.listEncode, t.listJsonStringify);
