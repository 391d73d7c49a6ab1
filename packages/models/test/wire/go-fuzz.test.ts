/**
 * Differential fuzz test against upstream Go: random objects of every built-in kind, filled by
 * upstream's randfill (go/fill.go), written by Go as JSON and protobuf. kubesdk must decode
 * the protobuf to exactly Go's JSON, and encode Go's JSON to bytes Go reads back to the same
 * object (Go checks, go/main.go).
 *
 * Each run takes a new seed; a failure names the seed and the object. Replay with
 *   KUBESDK_WIRE_FUZZ_SEED=<seed> pnpm exec vitest run packages/models/test/wire/go-fuzz.test.ts
 * (KUBESDK_WIRE_FUZZ_COUNT sets the number of objects; `go-wire gen -seed S -only I` prints one).
 */
import { isDeepStrictEqual } from "node:util";
import { decodeObject, encodeObject } from "@kubesdk/models";
import { expect, test } from "vitest";
import { parseExactJson } from "./exact-json.js";
import { buildFuzzer, type Failure, generate, verify } from "./go/fuzzer.js";

const seed = Number(process.env.KUBESDK_WIRE_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const count = Number(process.env.KUBESDK_WIRE_FUZZ_COUNT ?? 10_000);

/** The path of the first difference between two JSON values. */
function firstDifference(want: unknown, got: unknown, path = ""): string | undefined {
  if (isDeepStrictEqual(want, got)) return undefined;
  if (typeof want !== "object" || typeof got !== "object" || want === null || got === null) {
    return `${path || "(top)"}: want ${show(want)}, got ${show(got)}`;
  }
  const keys = new Set([...Object.keys(want), ...Object.keys(got)]);
  for (const key of keys) {
    const at = Array.isArray(want) ? `${path}[${key}]` : `${path}.${key}`;
    const diff = firstDifference(
      (want as Record<string, unknown>)[key],
      (got as Record<string, unknown>)[key],
      at,
    );
    if (diff) return diff;
  }
  return `${path}: different shape`;
}

function show(value: unknown): string {
  const text = typeof value === "bigint" ? `${value}n` : (JSON.stringify(value) ?? String(value));
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

test(`kubesdk and Go agree on ${count} random objects (seed ${seed})`, { timeout: 600_000 }, () => {
  const bin = buildFuzzer();
  const samples = generate(bin, seed, count);
  const failures: Failure[] = [];
  const answers: { i: number; pb: string }[] = [];
  let rawChecked = 0;
  for (const { i, kind, json, pb, rawPB, skip } of samples) {
    if (skip !== undefined || json === undefined || pb === undefined) continue;
    const expected = parseExactJson(json) as Record<string, unknown>;
    for (const [what, bytes] of [
      ["decode", pb],
      ["decode of the object as filled", rawPB],
    ] as const) {
      if (bytes === undefined) continue;
      if (bytes === rawPB) rawChecked++;
      try {
        const decoded = decodeObject(Buffer.from(bytes, "base64"), { int64: "bigint" });
        const diff = firstDifference(expected, decoded);
        if (diff) failures.push({ i, kind, problem: `${what} differs from Go's JSON at ${diff}` });
      } catch (error) {
        failures.push({ i, kind, problem: `${what} failed: ${describeError(error)}` });
      }
    }
    try {
      answers.push({ i, pb: Buffer.from(encodeObject(expected)).toString("base64") });
    } catch (error) {
      failures.push({ i, kind, problem: `encode failed: ${describeError(error)}` });
    }
  }
  const report = verify(bin, seed, count, answers);
  failures.push(...report.failures);

  const checked = samples.filter((s) => s.skip === undefined);
  const kinds = new Set(checked.map((s) => s.kind));
  console.log(
    `wire fuzz seed ${seed}: ${checked.length}/${samples.length} objects of ${kinds.size}/${report.kinds} kinds checked ` +
      `(${samples.length - checked.length} that Go itself does not round-trip left out; ` +
      `${rawChecked} also decoded as filled), ${failures.length} failures`,
  );
  const listed = failures
    .slice(0, Number(process.env.KUBESDK_WIRE_FUZZ_SHOW ?? 12))
    .map((f) => `seed ${seed} object ${f.i} (${f.kind}): ${f.problem}`)
    .join("\n");
  expect(listed, `${failures.length} failures; replay with KUBESDK_WIRE_FUZZ_SEED=${seed}`).toBe("");
  expect(report.checked).toBe(answers.length);
  // Go keeps nearly every random object stable; every kind must be exercised.
  expect(checked.length).toBeGreaterThan(samples.length * 0.95);
  expect(kinds.size).toBe(report.kinds);
});
