// Cross-check: the same scenario through kubectl and the official Python client,
// against the reference server and a real kube-apiserver; prints every difference
// in the normalised answers and exits 1 if one is not accepted in docs/divergences.md.
// Usage (through cross-check.sh): main.ts [--out DIR] [--accepted FILE]
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type AcceptedDifference, loadAccepted } from "./accepted.js";
import { absent, diffJson } from "./diff.js";
import { namespaceFor, steps, writeFixtures } from "./fixtures.js";
import { runKubectlScenario } from "./kubectl-scenario.js";
import { normalise } from "./normalise.js";
import { runPythonScenario } from "./python-scenario.js";
import { type ServerKind, type ServerUnderTest, startReal, startReference } from "./servers.js";
import { CrossCheckError, type ScenarioRun } from "./step-result.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const clients = {
  kubectl: runKubectlScenario,
  python: runPythonScenario,
} as const;
type ClientName = keyof typeof clients;
type Runs = Record<ClientName, ScenarioRun>;

async function runClients(server: ServerUnderTest, scratchRoot: string): Promise<Runs> {
  const runs = {} as Runs;
  for (const client of Object.keys(clients) as ClientName[]) {
    const dir = join(scratchRoot, `${server.kind}-${client}`);
    await mkdir(dir);
    await writeFixtures(dir, namespaceFor(client));
    console.log(`cross-check: ${client} against the ${server.kind} server (${server.url})`);
    const run = await clients[client](server.kubeconfigPath, dir);
    runs[client] = normalise(run, { scratchDirs: [dir] }) as ScenarioRun;
  }
  return runs;
}

async function withServer(start: () => Promise<ServerUnderTest>, scratchRoot: string): Promise<Runs> {
  const server = await start();
  try {
    return await runClients(server, scratchRoot);
  } finally {
    await server.stop();
  }
}

function show(value: unknown): string {
  const text = value === absent ? absent : JSON.stringify(value);
  return text.length > 240 ? `${text.slice(0, 240)}…` : text;
}

interface Report {
  unexpected: number;
  accepted: number;
  usedPatterns: Set<string>;
}

function compare(reference: Runs, real: Runs, accepted: readonly AcceptedDifference[]): Report {
  const report: Report = { unexpected: 0, accepted: 0, usedPatterns: new Set() };
  for (const client of Object.keys(clients) as ClientName[]) {
    for (const step of steps) {
      const pick = (runs: Runs) => runs[client].find((result) => result.step === step)?.outcome ?? absent;
      if (pick(reference) === absent && pick(real) === absent) continue; // a step this client does not run
      const differences = diffJson(pick(reference), pick(real));
      if (differences.length === 0) {
        console.log(`  same  ${client}/${step}`);
        continue;
      }
      console.log(`  DIFF  ${client}/${step}`);
      for (const difference of differences) {
        const id = `${client}/${step}:${difference.path}`;
        const match = accepted.find((entry) => entry.matches(id));
        if (match) {
          report.accepted++;
          report.usedPatterns.add(match.id);
        } else {
          report.unexpected++;
        }
        const mark = match ? `accepted (${match.divergence})` : "UNEXPECTED";
        console.log(`        ${mark} ${id}`);
        console.log(`          reference: ${show(difference.reference)}`);
        console.log(`          real:      ${show(difference.real)}`);
      }
    }
  }
  return report;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      accepted: { type: "string", default: join(repoRoot, "docs/divergences.md") },
    },
  });
  const accepted = await loadAccepted(values.accepted);
  const scratchRoot = await mkdtemp(join(tmpdir(), "kubesdk-cross-check-"));
  try {
    const runs: Record<ServerKind, Runs> = {
      reference: await withServer(() => startReference(scratchRoot), scratchRoot),
      real: await withServer(startReal, scratchRoot),
    };
    if (values.out !== undefined) {
      await mkdir(values.out, { recursive: true });
      for (const kind of ["reference", "real"] as const) {
        for (const client of Object.keys(clients) as ClientName[]) {
          const path = join(values.out, `${kind}-${client}.json`);
          await writeFile(path, `${JSON.stringify(runs[kind][client], null, 2)}\n`);
        }
      }
      console.log(`cross-check: normalised answers written to ${values.out}`);
    }
    const report = compare(runs.reference, runs.real, accepted);
    for (const entry of accepted) {
      if (!report.usedPatterns.has(entry.id)) {
        console.log(`cross-check: note: accepted entry ${entry.id} (${entry.divergence}) matched nothing`);
      }
    }
    console.log(`cross-check: ${report.accepted} accepted differences, ${report.unexpected} unexpected`);
    return report.unexpected === 0 ? 0 : 1;
  } finally {
    await rm(scratchRoot, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const code = error instanceof CrossCheckError ? ` [${error.code}]` : "";
    console.error(`cross-check${code}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
