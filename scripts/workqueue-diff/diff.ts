/**
 * Differential test of @kubesdk/controller's WorkQueue against client-go's workqueue: N seeded
 * operation sequences (ops.ts) run on both, every observation compared. A divergence prints its
 * seed; `--seed S` replays that one sequence and prints it step by step.
 *
 * Usage: diff.ts <client-go program> [--n 500] [--base 1] [--seed S]   (run.sh builds the program)
 */
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { generate, type Observed, type Op, runOurs } from "./ops.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    n: { type: "string", default: "500" },
    base: { type: "string", default: "1" },
    seed: { type: "string" },
  },
});
const program = positionals[0];
if (program === undefined)
  throw new Error("usage: diff.ts <client-go program> [--n N] [--base B] [--seed S]");
const seeds =
  values.seed !== undefined
    ? [Number(values.seed)]
    : Array.from({ length: Number(values.n) }, (_, i) => Number(values.base) + i);

const sequences = seeds.map((seed) => ({ seed, ops: generate(seed) }));
const input = sequences.flatMap((s) => s.ops.map((o) => JSON.stringify(o))).join("\n");
const started = performance.now();
const goLines = execFileSync(program, { input: `${input}\n`, encoding: "utf8", maxBuffer: 1 << 30 })
  .trim()
  .split("\n");
const goMs = performance.now() - started;

const show = (o: Op) => JSON.stringify(o);
let line = 0;
let failed = 0;
for (const { seed, ops } of sequences) {
  const theirs = goLines.slice(line, line + ops.length).map((l) => JSON.parse(l) as Observed);
  line += ops.length;
  const ours = await runOurs(ops);
  const at = ours.findIndex((o, i) => JSON.stringify(o) !== JSON.stringify(theirs[i]));
  if (values.seed !== undefined)
    ops.forEach((o, i) => {
      console.log(`${String(i).padStart(4)} ${show(o).padEnd(48)} ours ${JSON.stringify(ours[i])}`);
      if (i === at) console.log(`${" ".repeat(53)}client-go ${JSON.stringify(theirs[i])}`);
    });
  if (at < 0) continue;
  failed++;
  console.log(`divergence: seed ${seed}, operation ${at} ${show(ops[at] as Op)}`);
  console.log(`  ours      ${JSON.stringify(ours[at])}`);
  console.log(`  client-go ${JSON.stringify(theirs[at])}`);
  console.log(`  replay: pnpm test:workqueue-diff --seed ${seed}`);
}
const total = sequences.reduce((sum, s) => sum + s.ops.length, 0);
console.log(`${sequences.length} sequences, ${total} operations (client-go side ${goMs.toFixed(0)} ms)`);
console.log(`workqueue-diff: ${sequences.length - failed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
