import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hash32, shardOwner } from "../src/rendezvous.js";

const keys = Array.from({ length: 30_000 }, (_, i) => `ns-${i % 7}/object-${i}`);

function owners(members: readonly string[]): Map<string, string | undefined> {
  return new Map(keys.map((k) => [k, shardOwner(k, members)]));
}

describe("rendezvous hashing", () => {
  it("is stable: the same owner for the same key and member set, whatever the order", () => {
    // Pinned values: a change here would split ownership between replicas of different versions.
    expect([hash32(""), hash32("ns/name"), shardOwner("ns/name", ["a", "b", "c"])]).toEqual([
      2872998923,
      3583040438,
      "c",
    ]);
    expect(shardOwner("ns/x", [])).toBeUndefined();
    fc.assert(
      fc.property(
        fc.string(),
        fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 8 }),
        (k, m) => {
          const reversed = [...m].reverse();
          expect(shardOwner(k, reversed)).toBe(shardOwner(k, m));
          expect(m).toContain(shardOwner(k, m));
        },
      ),
    );
  });

  it("balances keys within 3% of an even share for 2 to 8 members", () => {
    for (let n = 2; n <= 8; n++) {
      const members = Array.from({ length: n }, (_, i) => `replica-${i}-x7f3`);
      const counts = new Map<string, number>();
      for (const owner of owners(members).values())
        counts.set(owner as string, (counts.get(owner as string) ?? 0) + 1);
      const even = keys.length / n;
      for (const m of members) expect(Math.abs((counts.get(m) ?? 0) - even) / even).toBeLessThan(0.03);
    }
  });

  it("join moves only the keys the newcomer wins, leave only the keys of the one who left", () => {
    const three = ["a-1", "b-2", "c-3"];
    const before = owners(three);
    const joined = owners([...three, "d-4"]);
    let moved = 0;
    for (const [k, owner] of joined) {
      if (owner !== before.get(k)) {
        expect(owner).toBe("d-4");
        moved++;
      }
    }
    // About a quarter of the keys go to the fourth member.
    expect(Math.abs(moved / keys.length - 0.25)).toBeLessThan(0.02);
    const left = owners(["a-1", "c-3"]);
    for (const [k, owner] of left) if (before.get(k) !== "b-2") expect(owner).toBe(before.get(k));
  });
});
