/** Spec cases for coordination.k8s.io: Lease durations, transitions and gated fields. */
import { int, type Random, type SpecGroup, type SpecVariant, word } from "./types.js";

function leases(rnd: Random): SpecVariant[] {
  const spec = (s: Record<string, unknown>) => ({ spec: s });
  return [
    ["empty", spec({})],
    [
      "valid",
      spec({
        holderIdentity: word(rnd),
        leaseDurationSeconds: int(rnd, 1, 60),
        leaseTransitions: int(rnd, 0, 9),
      }),
    ],
    ["duration-zero", spec({ leaseDurationSeconds: 0 })],
    ["duration-negative", spec({ leaseDurationSeconds: -int(rnd, 1, 9) })],
    ["transitions-negative", spec({ leaseTransitions: -1 })],
    ["times", spec({ acquireTime: "2024-01-01T00:00:00.000000Z", renewTime: "2024-01-01T00:00:01.000000Z" })],
    ["strategy-gated", spec({ strategy: "OldestEmulationVersion", preferredHolder: word(rnd) })],
    ["strategy-bad-gated", spec({ strategy: "Bogus" })],
    ["preferred-alone-gated", spec({ preferredHolder: word(rnd) })],
    ["no-spec", {}],
  ];
}

export const coordination: SpecGroup = {
  name: "coordination",
  kinds: [{ id: "coordination.k8s.io/leases", variants: leases }],
};
