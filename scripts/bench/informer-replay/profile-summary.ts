/**
 * Prints the functions with the most self time in a V8 .cpuprofile (from `--cpu-prof`), with their
 * share of the sampled time: the first thing to read when looking for a hot path.
 * Run: node --import tsx scripts/bench/informer-replay/profile-summary.ts <file.cpuprofile> [top]
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (file === undefined) throw new Error("usage: profile-summary <file.cpuprofile> [top]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const f = byId.get(id)?.callFrame;
  if (f === undefined) return;
  const where =
    f.url === "" ? "" : ` ${f.url.replace(/^.*\/(packages|node_modules)\//, "$1/")}:${f.lineNumber + 1}`;
  const name = `${f.functionName || "(anonymous)"}${where}`;
  self.set(name, (self.get(name) ?? 0) + dt);
});
const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 30));
console.log(`total sampled ${(total / 1000).toFixed(0)} ms`);
for (const [name, us] of rows)
  console.log(
    `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`,
  );
