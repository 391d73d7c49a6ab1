/**
 * The one-walk decode of a built-in object (openapi/typed-decode.ts) against the three walks it
 * replaced on the write path, run one after another as before: the type check, the canonical
 * quantities (in place), the prune. Objects are generated along each kind's schema, seeded, with
 * wrong types, nulls, unknown fields, quantities good and bad, base64 good and bad, integers out
 * of range, nested lists and maps, untyped subtrees. The one walk also leaves out the nulls and zero
 * scalars of Go's omitempty fields and notes their empty maps and lists, which the old walks kept: the
 * comparison drops both after the old walks, and the noted ones with dropEmptied (and, without
 * changing the object, with withoutEmptied, the managed fields' view). A null map value of a scalar
 * type becomes Go's zero value, which the old walks left null: the comparison sets it after them.
 */
import { fieldOf, itemOf, schemaFor, type TypeNode } from "@kubesdk/models";
import { omittedWhenEmpty, setMember } from "@kubesdk/models/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { copyDecoded } from "../src/api/copy.js";
import { seededRandom } from "../src/faults/prng.js";
import { dropEmptied, withoutEmptied } from "../src/openapi/drop-emptied.js";
import { canonicalQuantities } from "../src/openapi/quantities.js";
import { typeMismatch } from "../src/openapi/typed-check.js";
import { decodeTyped } from "../src/openapi/typed-decode.js";
import { pruneByType } from "../src/openapi/typed-prune.js";

const KINDS: [string, string, string][] = [
  ["", "v1", "ConfigMap"],
  ["", "v1", "Secret"],
  ["", "v1", "Pod"],
  ["", "v1", "PersistentVolume"],
  ["", "v1", "ResourceQuota"],
  ["", "v1", "LimitRange"],
  ["", "v1", "Service"],
  ["apps", "v1", "Deployment"],
  ["apps", "v1", "ControllerRevision"],
  ["batch", "v1", "Job"],
  ["apiextensions.k8s.io", "v1", "CustomResourceDefinition"],
];

/** The seeded generator of fault schedules (mulberry32): the objects are a pure function of the seed. */
const rng = seededRandom;

const QUANTITIES = ["1000m", "0.5", "1024Mi", " 2Gi ", "1e3", "abc", "1Zi", "", "+1", 7, 0.25, 1e21, -3];
const STRINGS = ["a", "", "b:c", "aGVsbG8=", "aGVsbG8", "!!", "x y", "__proto__", "1Gi"];
const WRONG: unknown[] = [true, 1.5, 2 ** 40, -(2 ** 31) - 1, 2 ** 63, "s", [], [1], {}, { a: 1 }, null];

function maker(random: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const chance = (p: number) => random() < p;
  const wrong = () => pick(WRONG);
  const untyped = (depth: number): unknown =>
    depth > 2 || chance(0.5)
      ? pick([...STRINGS, 1, true, null])
      : { k: untyped(depth + 1), l: [untyped(depth + 2)] };
  function scalar(node: TypeNode): unknown {
    if (chance(0.08)) return wrong();
    if (node.marker === "quantity") return pick(QUANTITIES);
    if (node.scalar === "integer") return pick([0, 3, -1, 2 ** 31 - 1, 2 ** 31, 1.5]);
    if (node.scalar === "number") return pick([0.5, 2, -7]);
    if (node.scalar === "boolean") return chance(0.5);
    if (node.scalar === "int-or-string") return pick([8080, "http", 1.5]);
    return pick(STRINGS);
  }
  function value(node: TypeNode | undefined, depth: number): unknown {
    if (!node || node.kind === "untyped") return untyped(depth);
    if (chance(0.04)) return null;
    if (node.kind === "scalar") return scalar(node);
    if (depth > 6) return chance(0.1) ? wrong() : node.kind === "list" ? [] : {};
    if (chance(0.03)) return wrong();
    if (node.kind === "list") {
      const item = itemOf(node);
      return Array.from({ length: Math.floor(random() * 3) }, () => value(item, depth + 1));
    }
    const out: Record<string, unknown> = {};
    const names = node.kind === "map" ? ["k1", "k2", "__proto__"] : node.fieldNames;
    for (const name of names) {
      // setMember: a "__proto__" map key is a key, as JSON.parse makes it.
      if (chance(node.kind === "map" ? 0.5 : 0.25))
        setMember(out, name, value(fieldOf(node, name), depth + 1));
      if (chance(0.03)) out[`unknown${Math.floor(random() * 9)}`] = untyped(depth + 1);
    }
    return out;
  }
  return value;
}

/** The write path before: type check, quantities in place, prune (on a copy: the old walks changed their input). */
function threeWalks(kind: string, schema: TypeNode, input: Record<string, unknown>) {
  const obj = copyDecoded(input);
  if (typeMismatch(kind, schema, obj) !== undefined) return undefined;
  canonicalQuantities(obj, schema);
  const pruned = pruneByType(obj, schema);
  return { object: withoutOmittedEmpty(pruned.value, schema), unknown: pruned.unknown };
}

/** The value without the empty maps and lists (and nulls, zero scalars, "" bytes) of omitempty fields, removed bottom-up in place. */
function withoutOmittedEmpty<T>(v: T, node: TypeNode | undefined): T {
  if (v === null || typeof v !== "object" || !node) return v;
  if (Array.isArray(v)) {
    for (const item of v) withoutOmittedEmpty(item, itemOf(node));
    return v;
  }
  const obj = v as Record<string, unknown>;
  const omitted = node.kind === "struct" && node.name ? omittedWhenEmpty(node.name) : undefined;
  for (const k of Object.keys(obj)) {
    const child = fieldOf(node, k);
    const nullZero = obj[k] === null && node.kind === "map" && child ? goZero(child) : undefined;
    if (nullZero !== undefined) {
      obj[k] = nullZero;
      continue;
    }
    if (obj[k] === null && omitted?.null.has(k)) {
      delete obj[k];
      continue;
    }
    const value = withoutOmittedEmpty(obj[k], child);
    const zero = value === "" || value === 0 || value === false;
    if ((zero && omitted?.zero.has(k)) || (value === "" && omitted?.empty.has(k))) {
      delete obj[k];
      continue;
    }
    const empty = Array.isArray(value) ? value.length === 0 : isEmptyObject(value);
    const reset = k === "managedFields" && node.name === "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
    if (empty && omitted?.empty.has(k) && !reset && (child?.kind === "list" || child?.kind === "map"))
      delete obj[k];
  }
  return v;
}

/** Go's zero value, which a null map value of a scalar type decodes to; undefined for times (they stay null). */
function goZero(node: TypeNode): unknown {
  if (node.kind !== "scalar") return undefined;
  if (node.marker === "quantity") return "0";
  if (node.marker === "time" || node.marker === "micro-time" || node.marker === "date") return undefined;
  if (node.scalar === "int-or-string" || node.scalar === "integer" || node.scalar === "number") return 0;
  if (node.scalar === "boolean") return false;
  return node.scalar === "string" && node.format !== "date-time" ? "" : undefined;
}

const isEmptyObject = (v: unknown) =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

describe("decodeTyped, the one walk of a built-in object's decode", () => {
  for (const [group, version, kind] of KINDS) {
    it(`answers as the type check, quantities and prune did, for ${kind}`, () => {
      const schema = schemaFor({ group, version, kind }) as TypeNode;
      fc.assert(
        fc.property(fc.integer(), (seed) => {
          const input = maker(rng(seed))(schema, 0) as Record<string, unknown>;
          if (typeof input !== "object" || input === null || Array.isArray(input)) return;
          const before = JSON.stringify(input);
          const want = threeWalks(kind, schema, input);
          const got = decodeTyped(input, schema);
          expect(JSON.stringify(input)).toBe(before);
          if (want === undefined) {
            expect(got).toBeUndefined();
            return;
          }
          expect(got).toBeDefined();
          // The managed fields' view drops what dropEmptied drops, leaving the object as it was.
          const decoded = JSON.stringify(got?.object);
          const view = withoutEmptied(got?.object ?? {}, got?.emptied ?? []);
          expect(JSON.stringify(got?.object)).toBe(decoded);
          dropEmptied(got?.object ?? {}, got?.emptied ?? []);
          expect(JSON.stringify(view)).toBe(JSON.stringify(got?.object));
          expect(JSON.stringify(got?.object)).toBe(JSON.stringify(want.object));
          expect(got?.unknown).toEqual(want.unknown);
        }),
        { seed: 35, numRuns: 400 },
      );
    });
  }

  it("names unknown fields inside lists and maps by their path", () => {
    const schema = schemaFor({ group: "", version: "v1", kind: "Pod" }) as TypeNode;
    const pod = {
      metadata: { name: "p", labels: { a: "b" }, foo: 1 },
      spec: { containers: [{ name: "c" }, { name: "d", bar: { x: 1 } }], baz: null },
      qux: [],
    };
    expect(decodeTyped(pod, schema)?.unknown).toEqual([
      "metadata.foo",
      "spec.containers[1].bar",
      "spec.baz",
      "qux",
    ]);
  });

  it("shares nothing with its input, untyped subtrees included", () => {
    const schema = schemaFor({ group: "apps", version: "v1", kind: "ControllerRevision" }) as TypeNode;
    const input = { metadata: { labels: { a: "b" } }, data: { any: { deep: [1] } }, revision: 1 };
    const got = decodeTyped(input, schema)?.object as typeof input;
    expect(got).toEqual(input);
    expect(got.metadata.labels).not.toBe(input.metadata.labels);
    expect(got.data).not.toBe(input.data);
    expect(got.data.any.deep).not.toBe(input.data.any.deep);
  });
});
