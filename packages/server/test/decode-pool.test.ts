/**
 * The decode worker pool gives what in-process decoding gives — the same value, the same Status for
 * a bad body — and a worker that dies fails only the body it was decoding, with a 500.
 */
import { describe, expect, it } from "vitest";
import type { StatusError } from "../src/api/status.js";
import { type DecodedObject, type DecodeTask, runDecodeTask } from "../src/http/body-decode.js";
import { decodeOffThread, stopDecodeWorkers } from "../src/http/decode-pool.js";

const inProcess = (raw: Buffer, task: DecodeTask) => {
  try {
    return { value: runDecodeTask(raw, task) };
  } catch (e) {
    return { status: (e as StatusError).status };
  }
};
const offThread = async (raw: Buffer, task: DecodeTask) => {
  try {
    return { value: await decodeOffThread(raw, task) };
  } catch (e) {
    return { status: (e as StatusError).status };
  }
};

const object = (type: "json" | "yaml"): DecodeTask => ({ what: "object", type, kindHint: "ConfigMap" });
const CASES: [string, string, DecodeTask][] = [
  ["a JSON object", '{"metadata":{"name":"a"},"data":{"k":"v","n":"1"}}', object("json")],
  ["repeated JSON keys", '{"data":{"k":"1","k":"2"},"spec":{"x":1,"x":2}}', object("json")],
  ["a __proto__ key", '{"metadata":{"name":"p"},"data":{"__proto__":"x"}}', object("json")],
  ["YAML with special values", "a: .inf\nb: -.inf\nc: .nan\nd: -0\ne: ~\nf: [1, 2.5]\n", object("yaml")],
  ["broken JSON", '{"metadata": {"name": "a"', object("json")],
  ["JSON that is not an object", "[1, 2]", object("json")],
  ["YAML with a repeated key", "a: 1\nb: 2\na: 3\n", object("yaml")],
  ["too deep JSON", `${'{"a":'.repeat(600)}1${"}".repeat(600)}`, object("json")],
  ["an empty body", "", object("json")],
  ["a JSON patch", '[{"op":"add","path":"/data/a","value":"x"}]', { what: "patch", type: "json-patch" }],
  ["a broken merge patch", '{"data": ', { what: "patch", type: "merge-patch" }],
  ["an apply configuration", "apiVersion: v1\nkind: ConfigMap\n", { what: "patch", type: "apply" }],
  ["a bad apply configuration", "a: [1\n", { what: "patch", type: "apply" }],
];

describe("decoding on a worker thread", () => {
  it.each(CASES)("%s decodes as in-process", async (_name, body, task) => {
    const raw = Buffer.from(body);
    expect(await offThread(raw, task)).toEqual(inProcess(raw, task));
  });

  it("keeps a __proto__ key an own field, as JSON.parse does", async () => {
    const raw = Buffer.from('{"data":{"__proto__":"x"}}');
    const off = (await decodeOffThread(raw, object("json"))) as DecodedObject;
    expect(Object.keys(off.body.data as object)).toEqual(["__proto__"]);
  });

  it("fails the body of a worker that dies with a 500, and decodes the next one", async () => {
    const raw = Buffer.from(JSON.stringify({ data: { a: "b" } }));
    const pending = offThread(raw, object("json"));
    stopDecodeWorkers();
    const failed = await pending;
    expect([failed.status?.code, failed.status?.reason]).toEqual([500, "InternalError"]);
    expect(await offThread(raw, object("json"))).toEqual(inProcess(raw, object("json")));
  });
});
