/**
 * Protobuf codec speed against JSON, printed as ratios (not a test: timings depend on the
 * machine). Run from the repository root with `pnpm bench:codec`, or
 *
 *   node --conditions=source --import tsx packages/models/bench/wire-codec.ts [pods]
 *
 * The list is 5,000 running pods shaped like apiserver output (the pod-running Go vector, with
 * names, uids, IPs and managedFields varied per item); the watch stream is one MODIFIED event per
 * pod. Before timing, the bench checks that both sides hold the same objects: the protobuf decodes
 * to exactly the JSON text (same keys, same order, same values) and encodes back to the same bytes.
 * Each contender runs in turn in every round, after warm-up rounds, each call after a full
 * garbage collection (so no call pays for the garbage of the one before); the figures are medians
 * of the wall time and of the process CPU time (all threads, so it includes parallel GC work).
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { isDeepStrictEqual } from "node:util";
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

/** Both sides must hold the same objects, or the comparison means nothing. */
function checkSameInput(): void {
  const same = (what: string, ok: boolean) => {
    if (!ok) throw new Error(`bench:codec: ${what} differ; the comparison would not be fair`);
  };
  same("decoded list and JSON list", JSON.stringify(decodeObject(listPb)) === listJson.toString("utf8"));
  same(
    "re-encoded and original list bytes",
    Buffer.from(encodeObject(JSON.parse(listJson.toString()))).equals(listPb),
  );
  events.forEach((event, i) => {
    const decoded = decodeWatchEvent(eventPb[i] as Uint8Array);
    same(
      `watch event ${i}`,
      isDeepStrictEqual(decoded, JSON.parse((eventJson[i] as Buffer).toString("utf8"))),
    );
    if (i === 0) same("watch event text", JSON.stringify(decoded) === JSON.stringify(event));
  });
}

const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});

interface Times {
  readonly wall: number;
  readonly cpu: number;
}

/** Median wall and CPU time of one call of each contender, interleaved round by round. */
function medianTimes<K extends string>(runs: Record<K, () => unknown>, rounds = 21): Record<K, Times> {
  const wall = {} as Record<K, number[]>;
  const cpu = {} as Record<K, number[]>;
  // Each contender's last result stays alive until its next call, as a client keeps what it
  // decoded: otherwise the full collections would also free the hidden classes its code was
  // optimized for, and time re-optimization instead of decoding.
  const kept = {} as Record<K, unknown>;
  for (let round = -5; round < rounds; round++) {
    for (const name of Object.keys(runs) as K[]) {
      collect();
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      kept[name] = runs[name]();
      const took = performance.now() - start;
      const used = process.cpuUsage(cpuStart);
      if (round >= 0) {
        wall[name] = [...(wall[name] ?? []), took];
        cpu[name] = [...(cpu[name] ?? []), (used.user + used.system) / 1000];
      }
    }
  }
  const out = {} as Record<K, Times>;
  for (const name of Object.keys(runs) as K[])
    out[name] = { wall: median(wall[name]), cpu: median(cpu[name]) };
  return out;
}

checkSameInput();
const t = medianTimes({
  listJsonParse: () => JSON.parse(listJson.toString("utf8")),
  listDecode: () => decodeObject(listPb),
  watchJsonParse: () => eventJson.map((line) => JSON.parse(line.toString("utf8"))),
  watchDecode: () => eventPb.map((frame) => decodeWatchEvent(frame)),
  listJsonStringify: () => Buffer.from(JSON.stringify(list)),
  listEncode: () => encodeObject(list),
  watchJsonStringify: () => events.map((event) => Buffer.from(JSON.stringify(event))),
  watchEncode: () => events.map((event) => encodeWatchEvent(event)),
});

const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(9);
const row = (what: string, pb: Times, json: Times) =>
  console.log(
    `${what.padEnd(40)} ${ms(pb.wall)} ${ms(json.wall)} ${(pb.wall / json.wall).toFixed(2).padStart(6)}` +
      `   ${ms(pb.cpu)} ${ms(json.cpu)} ${(pb.cpu / json.cpu).toFixed(2).padStart(6)}`,
  );
console.log(
  `PodList with ${count} pods: JSON ${listJson.length} bytes, protobuf ${listPb.length} bytes (medians)`,
);
console.log(
  `${"".padEnd(40)} ${"wall: pb".padStart(9)} ${"JSON".padStart(9)} ${"ratio".padStart(6)}` +
    `   ${"cpu: pb".padStart(9)} ${"JSON".padStart(9)} ${"ratio".padStart(6)}`,
);
row("decode list (JSON.parse)", t.listDecode, t.listJsonParse);
row(`decode ${count} watch events (JSON.parse)`, t.watchDecode, t.watchJsonParse);
row("encode list (JSON.stringify)", t.listEncode, t.listJsonStringify);
row(`encode ${count} watch events (JSON.stringify)`, t.watchEncode, t.watchJsonStringify);
