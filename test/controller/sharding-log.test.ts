/** The checks sharding-processes.test.ts applies to its log catch what they are meant to catch. */
import { shardOwner } from "@kubesdk/controller";
import { describe, expect, it } from "vitest";
import { type LoggedReconcile, overlaps, parseLine, strayReconciles } from "./support/sharding-log.js";

const r = (id: string, key: string, start: number, end?: number): LoggedReconcile => ({
  id,
  key,
  start: BigInt(start),
  end: end === undefined ? undefined : BigInt(end),
});

describe("sharding log checks", () => {
  it("parses committed and fenced-out lines", () => {
    expect(parseLine("a ns/x 10 20")).toEqual(r("a", "ns/x", 10, 20));
    expect(parseLine("a ns/x 10 -")).toEqual(r("a", "ns/x", 10));
    expect(parseLine("")).toBeUndefined();
  });

  it("overlaps: flags two identities' committed intervals of one key that intersect, nothing else", () => {
    expect(
      overlaps([r("a", "k", 0, 10_000), r("b", "k", 10_000, 20_000), r("a", "k", 20_000, 30_000)]),
    ).toEqual([]);
    expect(overlaps([r("a", "k", 0, 10_000), r("a", "j", 5_000, 6_000), r("b", "j", 7_000, 8_000)])).toEqual(
      [],
    );
    // Fenced-out reconciles did not commit: they do not count.
    expect(overlaps([r("a", "k", 0), r("b", "k", 5_000, 6_000)])).toEqual([]);
    expect(overlaps([r("a", "k", 0, 10_000), r("b", "k", 4_000, 5_000)])).toEqual([
      "k: b started 6 µs before a ended",
    ]);
  });

  it("strayReconciles: a key may only be reconciled by its owner before or after the change in force", () => {
    const before = ["a", "b"];
    const after = ["a", "b", "c"];
    const phases = [
      { what: "two", members: before, at: 0n },
      { what: "c joins", members: after, at: 100n },
    ];
    const keys = Array.from({ length: 50 }, (_, i) => `ns/k-${i}`);
    const stays = keys.find((k) => shardOwner(k, before) === shardOwner(k, after)) as string;
    const moves = keys.find((k) => shardOwner(k, after) === "c") as string;
    const stranger = ["a", "b", "c"].find((x) => x !== shardOwner(stays, before)) as string;
    expect(
      strayReconciles(
        [
          r(shardOwner(moves, before) as string, moves, 150, 160),
          r("c", moves, 170, 180),
          r(stranger, stays, 50, 60),
        ],
        phases,
      ),
    ).toEqual([`${stays} reconciled by ${stranger} during "two" (owners: ${shardOwner(stays, before)})`]);
  });
});
