/**
 * Harness of the cross-process leader suite: starts candidates as separate OS processes (kubesdk's
 * candidate.ts, client-go's scripts/client-go-check/leader), stops, kills and pauses them by
 * signal, and reads the shared log they append to. Waiting is on the log or the Lease (polled),
 * never on fixed sleeps.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
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

/** A reconcile: "work" passed its fence at `end`, "fenced" was refused there. */
export interface WorkEntry {
  readonly id: string;
  readonly kind: "work" | "fenced";
  readonly start: bigint;
  readonly end: bigint;
}

export type LogEntry =
  | WorkEntry
  | { readonly id: string; readonly kind: "ready" | "leading" | "stopped" | "exited"; readonly at: bigint };

export function parseLog(path: string): LogEntry[] {
  if (!existsSync(path)) return [];
  const entries: LogEntry[] = [];
  for (const raw of readFileSync(path, "utf8").split("\n")) {
    const f = raw.split(" ");
    const id = f[0] as string;
    if (f.length === 3 && /^\d+$/.test(f[1] as string))
      entries.push({ id, kind: "work", start: BigInt(f[1] as string), end: BigInt(f[2] as string) });
    else if (f.length === 4 && f[1] === "fenced")
      entries.push({ id, kind: "fenced", start: BigInt(f[2] as string), end: BigInt(f[3] as string) });
    else if (f.length === 3) entries.push({ id, kind: f[1] as "ready", at: BigInt(f[2] as string) });
  }
  return entries;
}

/** CLOCK_MONOTONIC nanoseconds, the clock every candidate logs with. */
export const monotonicNow = (): bigint => process.hrtime.bigint();

export const ms = (ns: bigint): number => Number(ns) / 1e6;

/** Pairs of work intervals of different identities that overlap (the safety property). */
export function overlaps(entries: readonly LogEntry[]): string[] {
  const work = entries
    .filter((e): e is WorkEntry => e.kind === "work")
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const problems: string[] = [];
  let latest: { end: bigint; id: string } | undefined;
  for (const w of work) {
    if (latest !== undefined && w.start < latest.end && w.id !== latest.id)
      problems.push(`${w.id} started at ${w.start} while ${latest.id} reconciled until ${latest.end}`);
    if (latest === undefined || w.end > latest.end) latest = { end: w.end, id: w.id };
  }
  return problems;
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
 * Builds the client-go candidate (once; again when main.go is newer) into the kubesdk cache, with
 * the Go build cache the other Go builds of the repository use. Modules come from the Go proxy.
 */
export function buildClientGoCandidate(): string {
  const cacheRoot = process.env.KUBESDK_CACHE ?? join(homedir(), ".cache", "kubesdk");
  const out = join(cacheRoot, "leader-candidate", "client-go-leader");
  const src = join(repoRoot, "scripts", "client-go-check");
  const main = join(src, "leader", "main.go");
  if (existsSync(out) && statSync(out).mtimeMs >= statSync(main).mtimeMs) return out;
  mkdirSync(dirname(out), { recursive: true });
  execFileSync("go", ["build", "-trimpath", "-o", out, "./leader"], {
    cwd: src,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      CGO_ENABLED: "0",
      GOTOOLCHAIN: "local",
      GOCACHE: join(cacheRoot, "real-apiserver", "go-build"),
      GOFLAGS: "-mod=readonly -buildvcs=false",
    },
  });
  return out;
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
