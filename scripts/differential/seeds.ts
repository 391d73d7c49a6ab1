/**
 * The seeds of a differential run: `--seeds 47514,1001,random` (CI: known seeds that once found
 * a disagreement, plus fresh ones for fuzzing), `--seed N` (a replay), or one random seed (local
 * default). Each seed runs on servers of its own, so a replay with `--seed N` sends exactly the
 * requests of that seed's part of a `--seeds` run.
 */

/** A fresh seed: an unsigned 31-bit integer. */
export const randomSeed = (): number => Math.floor(Math.random() * 2 ** 31);

export function parseSeeds(seeds: string | undefined, seed: string | undefined): number[] {
  if (seeds !== undefined && seed !== undefined) throw new Error("--seed and --seeds exclude each other");
  const items = seeds !== undefined ? seeds.split(",") : [seed ?? "random"];
  return items.map((item) => {
    const s = item.trim();
    if (s === "random") return randomSeed();
    const n = Number(s);
    if (s === "" || !Number.isInteger(n) || n < 0 || n >= 2 ** 32)
      throw new Error(`not a seed: ${JSON.stringify(item)} (an integer in [0, 2^32) or "random")`);
    return n;
  });
}

export interface SeedResult {
  readonly seed: number;
  readonly failed: boolean;
}

/** One line per seed, and for each failed seed the command that replays it. */
export function printSeedSummary(results: readonly SeedResult[], replay: (seed: number) => string): void {
  if (results.length < 2 && !results.some((r) => r.failed)) return;
  console.log(`\nseeds: ${results.map((r) => `${r.seed} ${r.failed ? "FAILED" : "ok"}`).join(", ")}`);
  for (const r of results.filter((x) => x.failed)) console.log(`replay: ${replay(r.seed)}`);
}
