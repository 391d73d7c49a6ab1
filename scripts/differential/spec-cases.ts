/**
 * Seeded spec cases from the groups in specs/: every variant of every kind the baseline kept, named
 * `<group>/<resource>:spec:<variant>`, in a seeded order. The same seed gives the same bodies.
 */
import { seededRandom } from "../../packages/server/src/faults/prng.js";
import type { DiffCase } from "./cases.js";
import { type Fixtures, type KindUnderTest, kindId } from "./kinds.js";
import { SPEC_GROUPS } from "./specs/index.js";

export function generateSpecCases(kinds: readonly KindUnderTest[], seed: number, fx: Fixtures): DiffCase[] {
  // A stream of its own, so that adding spec variants leaves the metadata cases of a seed as they were.
  const rnd = seededRandom((seed ^ 0x5bd1e995) >>> 0);
  const byId = new Map(kinds.map((k) => [kindId(k), k]));
  const cases: DiffCase[] = [];
  for (const group of SPEC_GROUPS)
    for (const entry of group.kinds) {
      const kind = byId.get(entry.id);
      if (!kind) continue;
      for (const [variant, body] of entry.variants(rnd, fx)) {
        const name =
          entry.name ?? kind.fixedName ?? (kind.ipName ? "10.9.200.1" : `s-${variant}`.slice(0, 60));
        cases.push({ id: `${entry.id}:spec:${variant}`, kind, metadata: { name }, body });
      }
    }
  for (let i = cases.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [cases[i], cases[j]] = [cases[j] as DiffCase, cases[i] as DiffCase];
  }
  return cases;
}
