/**
 * Harness of the cross-process leader suite: starts candidates as separate OS processes (kubesdk's
 * candidate.ts, client-go's scripts/client-go-check/leader), stops, kills and pauses them by
 * signal (the log they append to is read by ./protocol.ts). Waiting is on the log or the Lease
 * (polled), never on fixed sleeps.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..", "..");

/** Lease timing of every candidate (the issue's: lease 3 s, renew deadline 2 s, retry 0.5 s). */
export interface Timing {
  readonly leaseMs: number;
  readonly renewMs: number;
  readonly retryMs: number;
}

export interface Candidate {
  readonly id: string;
  readonly kind: "kubesdk" | "client-go";
  readonly process: ChildProcess;
  /** What the process wrote to stderr (for failure messages). */
  readonly stderr: () => string;
  readonly exited: Promise<void>;
}

export interface Election {
  readonly kubeconfig: string;
  readonly namespace: string;
  readonly lease: string;
  readonly log: string;
  readonly timing: Timing;
}

function track(id: string, kind: Candidate["kind"], child: ChildProcess): Candidate {
  let err = "";
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { id, kind, process: child, stderr: () => err, exited };
}

function args(e: Election, id: string): string[] {
  return [
    "--kubeconfig",
    e.kubeconfig,
    "--namespace",
    e.namespace,
    "--lease",
    e.lease,
    "--identity",
    id,
    "--log",
    e.log,
    "--lease-ms",
    String(e.timing.leaseMs),
    "--renew-ms",
    String(e.timing.renewMs),
    "--retry-ms",
    String(e.timing.retryMs),
  ];
}

/**
 * Bundles candidate.ts (with the workspace packages' sources) into one ES module, so each candidate
 * process starts by loading one file instead of compiling hundreds through tsx: on a loaded machine
 * that is the difference between a second and a minute. esbuild comes from the workspace (a
 * dependency of tsx), as in scripts/ci/pack-project.ts.
 */
export async function bundleKubesdkCandidate(): Promise<string> {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve("tsx"));
  const esbuild = (await import(fromTsx.resolve("esbuild"))) as {
    build(options: Record<string, unknown>): Promise<unknown>;
  };
  const outfile = join(mkdtempSync(join(tmpdir(), "kubesdk-candidate-")), "candidate.mjs");
  await esbuild.build({
    entryPoints: [join(here, "candidate.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["source"],
    logLevel: "silent",
    // CommonJS dependencies inside an ES bundle need a require of their own.
    banner: {
      js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
    },
  });
  return outfile;
}

export function startKubesdk(e: Election, id: string, bundle: string): Candidate {
  const child = spawn(process.execPath, [bundle, ...args(e, id)], { stdio: ["ignore", "ignore", "pipe"] });
  return track(id, "kubesdk", child);
}

export function startClientGo(e: Election, id: string, binary: string): Candidate {
  // Go's flag package takes "--name value" like node's parseArgs.
  const child = spawn(binary, args(e, id), { stdio: ["ignore", "ignore", "pipe"] });
  return track(id, "client-go", child);
}

/**
 * The client-go candidate's binary: $KUBESDK_CLIENT_GO_LEADER when scripts/leader/test-leader.sh
 * built it before the suite, else built now by the same script (cached by a hash of its sources).
 */
export function buildClientGoCandidate(): string {
  const given = process.env.KUBESDK_CLIENT_GO_LEADER;
  if (given !== undefined && given !== "") return given;
  const script = join(repoRoot, "scripts", "leader", "build-client-go-candidate.sh");
  return execFileSync("bash", [script], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

/** Polls `probe` (the log, the Lease) every 20 ms until it returns a value; fails after `limitMs`. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  limitMs = 180_000,
): Promise<T> {
  const deadline = performance.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Sends a signal to a candidate that may have exited already. */
export function signal(c: Candidate, sig: NodeJS.Signals): void {
  if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill(sig);
}

export async function killAll(candidates: readonly Candidate[]): Promise<void> {
  for (const c of candidates) {
    signal(c, "SIGCONT");
    signal(c, "SIGKILL");
  }
  await Promise.all(candidates.map((c) => c.exited));
}
