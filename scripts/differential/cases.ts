/**
 * Seeded generation of names and metadata, valid and invalid, for every kind in kinds.ts. A case id
 * is `<group>/<resource>:<category>:<variant>` (the variant says what is special about the input),
 * so that docs/divergences.md can accept a family of cases with one pattern. The same seed gives the
 * same cases in the same order.
 */
import { seededRandom } from "../../packages/server/src/faults/prng.js";
import { type KindUnderTest, kindId } from "./kinds.js";

export interface DiffCase {
  readonly id: string;
  readonly kind: KindUnderTest;
  readonly metadata: Record<string, unknown>;
  /** The object without metadata, when the case varies the spec (spec-cases.ts); else the kind's own. */
  readonly body?: Record<string, unknown>;
  /**
   * A status case (status-cases.ts): the kind's object is created for real, then this status is
   * merge-patched into its /status with dryRun=All, and that answer is compared.
   */
  readonly status?: Record<string, unknown>;
}

type Random = () => number;
const lower = "abcdefghijklmnopqrstuvwxyz0123456789";
const word = (rnd: Random, n: number): string => {
  let s = "";
  for (let i = 0; i < n; i++) s += lower[Math.floor(rnd() * (i === 0 ? 26 : lower.length))];
  return s;
};
/** A DNS-ish string of exactly n characters: letters and digits, starting with a letter. */
const ofLength = (rnd: Random, n: number): string => word(rnd, n);
/** n characters made of 60-character labels joined by dots (a subdomain when n <= 253). */
function dotted(rnd: Random, n: number): string {
  let s = "";
  while (s.length < n) s += (s ? "." : "") + word(rnd, 60);
  s = s.slice(0, n);
  return s.endsWith(".") ? `${s.slice(0, -1)}a` : s;
}

/** Name variants: [variant, name]. */
function nameVariants(rnd: Random): [string, string][] {
  const w = () => word(rnd, 3 + Math.floor(rnd() * 8));
  return [
    ["plain", w()],
    ["len-52", ofLength(rnd, 52)],
    ["len-53", ofLength(rnd, 53)],
    ["len-62", ofLength(rnd, 62)],
    ["len-63", ofLength(rnd, 63)],
    ["len-64", ofLength(rnd, 64)],
    ["len-253", dotted(rnd, 253)],
    ["len-254", dotted(rnd, 254)],
    ["dots", `${w()}.${w()}`],
    ["dot-leading", `.${w()}`],
    ["dot-trailing", `${w()}.`],
    ["dot-only", "."],
    ["dot-dot", ".."],
    ["colon", `${w()}:${w()}`],
    ["system-colon", `system:controller:${w()}`],
    ["uppercase", `${w()}Up`],
    ["unicode", `${w()}é`],
    ["dash-leading", `-${w()}`],
    ["dash-trailing", `${w()}-`],
    ["digit-leading", `1${w()}`],
    ["underscore", `${w()}_${w()}`],
    ["slash", `${w()}/${w()}`],
    ["percent", `${w()}%${w()}`],
    ["space", `${w()} ${w()}`],
    ["at", `${w()}@${w()}`],
    ["dotted-63-labels", `${ofLength(rnd, 63)}.${ofLength(rnd, 10)}`],
    ["dotted-label-64", `${ofLength(rnd, 64)}.${w()}`],
  ];
}

const IP_NAMES: [string, string][] = [
  ["ipv4", "10.1.2.3"],
  ["ipv4-leading-zero", "10.01.2.3"],
  ["ipv6", "2001:db8::1"],
  ["ipv6-not-canonical", "2001:DB8:0:0::1"],
  ["ipv4-mapped", "::ffff:10.1.2.3"],
  ["not-ip", "abc"],
];

function generateNameVariants(rnd: Random): [string, string][] {
  const w = () => word(rnd, 3 + Math.floor(rnd() * 6));
  return [
    ["plain-dash", `${w()}-`],
    ["plain", w()],
    ["dot-trailing", `${w()}.`],
    ["colon-dash", `${w()}:${w()}-`],
    ["uppercase-dash", `${w()}Up-`],
    ["len-60-dash", `${ofLength(rnd, 59)}-`],
    ["len-63-dash", `${ofLength(rnd, 62)}-`],
    ["len-64-dash", `${ofLength(rnd, 63)}-`],
    ["len-254-dash", `${dotted(rnd, 253)}-`],
    ["slash-dash", `${w()}/x-`],
    ["dash-only", "-"],
  ];
}

function labelVariants(rnd: Random): [string, unknown][] {
  const w = () => word(rnd, 3 + Math.floor(rnd() * 6));
  return [
    ["plain", { [w()]: w() }],
    ["null", null],
    ["empty-map", {}],
    ["value-null", { [w()]: null }],
    ["value-empty", { [w()]: "" }],
    ["value-63", { [w()]: ofLength(rnd, 63) }],
    ["value-64", { [w()]: ofLength(rnd, 64) }],
    ["value-uppercase", { [w()]: "Up_Value.1" }],
    ["value-dash-leading", { [w()]: `-${w()}` }],
    ["value-slash", { [w()]: `${w()}/${w()}` }],
    ["value-unicode", { [w()]: `${w()}é` }],
    ["key-prefixed", { [`example.com/${w()}`]: "v" }],
    ["key-prefix-empty", { [`/${w()}`]: "v" }],
    ["key-prefix-upper", { [`Example.com/${w()}`]: "v" }],
    ["key-two-slashes", { [`a/b/${w()}`]: "v" }],
    ["key-name-63", { [ofLength(rnd, 63)]: "v" }],
    ["key-name-64", { [ofLength(rnd, 64)]: "v" }],
    ["key-prefix-254", { [`${dotted(rnd, 254)}/a`]: "v" }],
    ["key-empty-name", { "example.com/": "v" }],
    ["key-colon", { [`${w()}:${w()}`]: "v" }],
    ["key-dash-trailing", { [`${w()}-`]: "v" }],
  ];
}

function annotationVariants(rnd: Random): [string, unknown][] {
  const w = () => word(rnd, 3 + Math.floor(rnd() * 6));
  return [
    ["plain", { [w()]: "any value: with / and spaces" }],
    ["null", null],
    ["empty-map", {}],
    ["value-null", { [w()]: null }],
    ["key-uppercase-prefix", { [`Example.COM/${w()}`]: "v" }],
    ["key-invalid", { [`${w()} ${w()}`]: "v" }],
    ["key-two-slashes", { [`a/b/${w()}`]: "v" }],
    ["size-limit", { a: "x".repeat(256 * 1024 - 1) }],
    ["size-over", { a: "x".repeat(256 * 1024) }],
  ];
}

function ownerReferenceVariants(rnd: Random): [string, unknown][] {
  const ref = (extra: Record<string, unknown> = {}) => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    name: word(rnd, 5),
    uid: "6f1c0d5e-2b7a-4f4e-9a51-0c4a3c1b2d3e",
    ...extra,
  });
  return [
    ["plain", [ref()]],
    ["null", null],
    ["empty-list", []],
    ["missing-uid", [ref({ uid: undefined })]],
    ["missing-all", [{}]],
    ["apiversion-bad", [ref({ apiVersion: "a/b/c" })]],
    ["apiversion-group-only", [ref({ apiVersion: "apps/" })]],
    ["two-controllers", [ref({ controller: true }), ref({ controller: true, kind: "Secret" })]],
    ["one-controller", [ref({ controller: true }), ref({ controller: false })]],
  ];
}

function finalizerVariants(rnd: Random): [string, unknown][] {
  return [
    ["prefixed", [`example.com/${word(rnd, 5)}`]],
    ["null", null],
    ["empty-list", []],
    ["bare", [word(rnd, 5)]],
    ["standard-kubernetes", ["kubernetes"]],
    ["orphan-and-foreground", ["orphan", "foregroundDeletion"]],
    ["empty-string", [""]],
    ["two-slashes", ["a/b/c"]],
    ["uppercase-prefix", ["Example.com/x"]],
  ];
}

/** Other metadata fields sent as null, which Go's decoding turns into their zero values. */
const NULL_FIELDS = [
  "managedFields",
  "namespace",
  "generateName",
  "uid",
  "resourceVersion",
  "creationTimestamp",
  "deletionTimestamp",
  "generation",
  "selfLink",
];

type Variant = [category: string, variant: string, metadata: Record<string, unknown>];

function variantsFor(kind: KindUnderTest, rnd: Random, base: () => string): Variant[] {
  const out: Variant[] = [];
  const name = kind.fixedName;
  if (!name) {
    for (const [v, n] of kind.ipName ? IP_NAMES : nameVariants(rnd)) out.push(["name", v, { name: n }]);
    out.push(["name", "empty", { name: "" }]);
    out.push(["name", "null", { name: null }]);
    if (!kind.ipName)
      for (const [v, g] of generateNameVariants(rnd)) out.push(["generateName", v, { generateName: g }]);
  }
  const named = (extra: Record<string, unknown>) => ({ name: name ?? base(), ...extra });
  for (const [v, x] of labelVariants(rnd)) out.push(["labels", v, named({ labels: x })]);
  for (const [v, x] of annotationVariants(rnd)) out.push(["annotations", v, named({ annotations: x })]);
  for (const [v, x] of ownerReferenceVariants(rnd))
    out.push(["ownerReferences", v, named({ ownerReferences: x })]);
  for (const [v, x] of finalizerVariants(rnd)) out.push(["finalizers", v, named({ finalizers: x })]);
  for (const f of NULL_FIELDS) out.push(["null", f, named({ [f]: null })]);
  return out;
}

/** `count` cases over all kinds, round robin over kinds, each kind's variants in a seeded order. */
export function generateCases(kinds: readonly KindUnderTest[], seed: number, count: number): DiffCase[] {
  const rnd = seededRandom(seed);
  const base = (kind: KindUnderTest) => () =>
    kind.ipName ? `10.9.${Math.floor(rnd() * 250)}.${Math.floor(rnd() * 250)}` : `d-${word(rnd, 8)}`;
  const queues = kinds.map((kind) => ({ kind, left: [] as Variant[] }));
  const cases: DiffCase[] = [];
  let round = 0;
  while (cases.length < count) {
    for (const q of queues) {
      if (cases.length >= count) break;
      if (q.left.length === 0) q.left = shuffle(rnd, variantsFor(q.kind, rnd, base(q.kind)));
      const [category, variant, metadata] = q.left.pop() as Variant;
      cases.push({ id: `${kindId(q.kind)}:${category}:${variant}`, kind: q.kind, metadata });
    }
    round++;
    if (round > count) break;
  }
  return cases;
}

function shuffle<T>(rnd: Random, xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
  }
  return xs;
}
