/**
 * Protobuf codec speed against JSON for a large list, printed as ratios (not a test: timings
 * depend on the machine). Run from the repository root:
 *
 *   node --conditions=source --import tsx packages/models/bench/wire-codec.ts
 *
 * The list is 2,000 running pods shaped like apiserver output (the pod-running Go vector, with
 * names, uids, IPs and managedFields varied per item).
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import {
  decodeObject,
  encodeObject,
  protoMagic,
  protoMessageNames,
  protoType,
  protoTypeFor,
} from "@kubesdk/models";
import { planOf } from "../src/wire/plan.js";
import { verifyWire } from "../src/wire/verify.js";

const vectors = JSON.parse(
  readFileSync(new URL("../test/wire/go-vectors/vectors.json", import.meta.url), "utf8"),
) as { objects: { name: string; json: Record<string, unknown> }[] };
const pod = vectors.objects.find((v) => v.name === "pod-running")?.json as Record<string, unknown>;
const { apiVersion: _apiVersion, kind: _kind, ...podBody } = pod;

const items = Array.from({ length: 2000 }, (_, i) => {
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

const jsonBytes = Buffer.from(JSON.stringify(list));
const pbBytes = encodeObject(list);
const listType = protoTypeFor({ group: "", version: "v1", kind: "PodList" });
const listPlan = planOf(listType);
const envelope = protoType(protoMessageNames.unknown).decode(pbBytes.subarray(protoMagic.length));
const raw = (envelope as unknown as { raw: Uint8Array }).raw;

/**
 * Best time of one call over many rounds: the minimum is the figure least disturbed by other work
 * on a busy machine, and interleaving the rounds makes a slow spell hit every function alike.
 */
function bestTimes<K extends string>(runs: Record<K, () => unknown>, rounds = 25): Record<K, number> {
  const best = {} as Record<K, number>;
  for (let round = -3; round < rounds; round++) {
    for (const name of Object.keys(runs) as K[]) {
      const start = performance.now();
      runs[name]();
      const took = performance.now() - start;
      if (round >= 0) best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, took);
    }
  }
  return best;
}

const t = bestTimes({
  jsonParse: () => JSON.parse(jsonBytes.toString("utf8")),
  decode: () => decodeObject(pbBytes),
  jsonStringify: () => Buffer.from(JSON.stringify(list)),
  encode: () => encodeObject(list),
  wireCheck: () => verifyWire(listPlan, raw),
  protobufjsDecode: () => listType.decode(raw),
});

const ratio = (a: number, b: number) => (a / b).toFixed(2);
const share = (a: number, b: number) => `${((a / b) * 100).toFixed(0)}%`;
console.log(
  `PodList with ${items.length} pods: JSON ${jsonBytes.length} bytes, protobuf ${pbBytes.length} bytes`,
);
console.log(`decodeObject / JSON.parse(utf8):          ${ratio(t.decode, t.jsonParse)}`);
console.log(`encodeObject / JSON.stringify → bytes:    ${ratio(t.encode, t.jsonStringify)}`);
console.log(`  share of decodeObject: wire check       ${share(t.wireCheck, t.decode)}`);
console.log(`  share of decodeObject: protobufjs decode ${share(t.protobufjsDecode, t.decode)}`);
