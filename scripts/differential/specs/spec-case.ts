/**
 * Spec cases: for one kind, seeded variants of the object's body (everything but metadata), valid
 * and invalid. A group file (specs/apps.ts, …) lists its kinds' variants; specs/index.ts registers
 * the groups, one line each. A spec case's id is `<group>/<resource>:spec:<variant>`.
 */
import type { Fixtures, KindUnderTest } from "../kinds.js";

export type Random = () => number;
export type Body = Record<string, unknown>;

/** One kind's spec variants: [variant, body] pairs, built from the seeded generator and the fixtures. */
export interface SpecVariants {
  readonly kind: Pick<KindUnderTest, "group" | "resource">;
  readonly variants: (rnd: Random, fx: Fixtures) => readonly (readonly [string, Body])[];
}

/** A lowercase word of 3 to 10 characters. */
export function word(rnd: Random): string {
  const n = 3 + Math.floor(rnd() * 8);
  let s = "";
  for (let i = 0; i < n; i++) s += "abcdefghijklmnopqrstuvwxyz"[Math.floor(rnd() * 26)];
  return s;
}

/** One of `xs`, chosen by the generator. */
export const pick = <T>(rnd: Random, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;

/** A copy of `base` with `patch` merged in (objects merge, anything else replaces; undefined deletes). */
export function merged(base: Body, patch: Body): Body {
  const out: Body = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    const b = out[k];
    if (v === undefined) delete out[k];
    else if (isPlain(v) && isPlain(b)) out[k] = merged(b, v);
    else out[k] = v;
  }
  return out;
}

const isPlain = (v: unknown): v is Body => typeof v === "object" && v !== null && !Array.isArray(v);
