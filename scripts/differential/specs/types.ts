/**
 * Spec cases: for a kind of kinds.ts, whole objects (everything but metadata) that are valid or
 * invalid in one named way. A group file (rbac.ts, networking.ts, …) lists its kinds' variants; the
 * seeded random source picks the names and values that are not the point of a variant, so that a
 * seed replays the same bodies. Case ids are `<group>/<resource>:spec:<variant>`.
 */
import type { Fixtures } from "../kinds.js";

export type Random = () => number;
export type Body = Record<string, unknown>;

/** One variant: what it tests, and the object without metadata. */
export type SpecVariant = readonly [variant: string, body: Body];

export interface SpecKindCases {
  /** `<group>/<resource>` as kindId spells it (core kinds: `core/<resource>`). */
  readonly id: string;
  /** A fixed object name, for kinds whose name depends on the spec. */
  readonly name?: string;
  readonly variants: (rnd: Random, fx: Fixtures) => readonly SpecVariant[];
}

export interface SpecGroup {
  readonly name: string;
  readonly kinds: readonly SpecKindCases[];
}

const lower = "abcdefghijklmnopqrstuvwxyz";
/** A lowercase word of 3 to 8 letters. */
export function word(rnd: Random): string {
  let s = "";
  const n = 3 + Math.floor(rnd() * 6);
  for (let i = 0; i < n; i++) s += lower[Math.floor(rnd() * lower.length)];
  return s;
}

export const pick = <T>(rnd: Random, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
export const int = (rnd: Random, lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));

/** Label selectors, valid and not, for the kinds that carry one. */
export function selectorVariants(rnd: Random): [string, unknown][] {
  const w = () => word(rnd);
  return [
    ["selector-labels", { matchLabels: { [w()]: w() } }],
    ["selector-in", { matchExpressions: [{ key: w(), operator: "In", values: [w(), w()] }] }],
    ["selector-in-empty", { matchExpressions: [{ key: w(), operator: "In", values: [] }] }],
    ["selector-exists-values", { matchExpressions: [{ key: w(), operator: "Exists", values: [w()] }] }],
    ["selector-bad-operator", { matchExpressions: [{ key: w(), operator: "Bogus" }] }],
    ["selector-bad-key", { matchLabels: { [`${w()} ${w()}`]: "v" } }],
    ["selector-bad-value", { matchLabels: { [w()]: `-${w()}` } }],
    [
      "selector-bad-expression-value",
      { matchExpressions: [{ key: w(), operator: "NotIn", values: ["a b"] }] },
    ],
    ["selector-empty", {}],
  ];
}
