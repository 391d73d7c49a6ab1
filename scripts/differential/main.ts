/**
 * `pnpm diff:server [--seed N | --seeds N,N,random] [--cases N] [--out FILE]`: sends the same seeded create requests
 * (dryRun=All), and /status writes of created objects (dryRun=All, status-cases.ts), to the reference
 * server and to a real kube-apiserver 1.37.1 and compares the answers (compare.ts). Prints the seed and `N cases, N agree, N disagree`; exits 1 on a disagreement that
 * docs/divergences.md does not accept. Replay a run with its seed; with `--seeds`, each seed runs on
 * servers of its own and a failed seed's replay command is printed at the end.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "@kubesdk/server";
import { Agent, request } from "undici";
import { startRealApiserver } from "../real-apiserver/start.js";
import { type DiffCase, generateCases } from "./cases.js";
import { type Answer, loadAccepted, sameAnswer, summarise } from "./compare.js";
import { type Fixtures, KINDS, type KindUnderTest, kindId, pathOf } from "./kinds.js";
import { parseSeeds, printSeedSummary, type SeedResult } from "./seeds.js";
import { generateSpecCases } from "./spec-cases.js";
import { generateStatusCases } from "./status-cases.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const NAMESPACE = "diff";
const CONCURRENCY = 8;
/** Status cases per kind with a status (status-cases.ts). */
const STATUS_CASES_PER_KIND = 8;

interface Endpoint {
  readonly name: "reference" | "real";
  send(
    method: string,
    path: string,
    body?: unknown,
    contentType?: string,
  ): Promise<{ code: number; body: unknown }>;
}

function endpoint(name: Endpoint["name"], url: string, token: string, ca: string): Endpoint {
  const dispatcher = new Agent({ connect: { ca } });
  return {
    name,
    async send(method, path, body, contentType = "application/json") {
      const res = await request(url + path, {
        method: method as "POST",
        dispatcher,
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": contentType,
          accept: "application/json",
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.body.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
      return { code: res.statusCode, body: parsed };
    },
  };
}

function args(argv: readonly string[]): { seeds: number[]; cases: number; out: string | undefined } {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const cases = Number(value("--cases") ?? 1200);
  if (!Number.isInteger(cases) || cases <= 0)
    throw new Error(
      "usage: diff:server [--seed N | --seeds N,N,random] [--cases <positive integer>] [--out <file>]",
    );
  return { seeds: parseSeeds(value("--seeds"), value("--seed")), cases, out: value("--out") };
}

const replay = (cases: number) => (seed: number) => `pnpm diff:server --seed ${seed} --cases ${cases}`;

/** A PKCS#10 request from openssl, base64 as CertificateSigningRequest.spec.request carries it. */
function csrBase64(): string {
  const dir = mkdtempSync(join(tmpdir(), "kubesdk-diff-"));
  try {
    const pem = execFileSync(
      "openssl",
      [
        "req",
        "-new",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        join(dir, "k"),
        "-subj",
        "/CN=diff",
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    return Buffer.from(pem).toString("base64");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function bodyOf(
  kind: KindUnderTest,
  fx: Fixtures,
  metadata: Record<string, unknown>,
  body: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const apiVersion = kind.group === "" ? kind.version : `${kind.group}/${kind.version}`;
  return { apiVersion, kind: kind.kind, metadata, ...(body ?? kind.body(fx)) };
}

async function answer(
  ep: Endpoint,
  kind: KindUnderTest,
  fx: Fixtures,
  metadata: Record<string, unknown>,
  body?: Record<string, unknown>,
): Promise<Answer> {
  const res = await ep.send("POST", `${pathOf(kind, fx.ns)}?dryRun=All`, bodyOf(kind, fx, metadata, body));
  return summarise(res.code, res.body, metadata);
}

/**
 * A status case: the object is created for real under the case's name, its status written with
 * dryRun=All (a merge patch), then the object is deleted again.
 */
async function statusAnswer(ep: Endpoint, c: DiffCase, fx: Fixtures): Promise<Answer> {
  const at = pathOf(c.kind, fx.ns);
  const created = await ep.send("POST", at, bodyOf(c.kind, fx, c.metadata, c.body));
  if (created.code !== 201)
    return { ...summarise(created.code, created.body, c.metadata), reason: "create failed" };
  const name = String(c.metadata.name);
  try {
    const res = await ep.send(
      "PATCH",
      `${at}/${name}/status?dryRun=All`,
      { status: c.status },
      "application/merge-patch+json",
    );
    return summarise(res.code, res.body, c.metadata);
  } finally {
    await ep.send("DELETE", `${at}/${name}?gracePeriodSeconds=0`);
  }
}

/** Kinds whose minimal object the real server refuses are a fixture bug: reported and left out. */
async function baseline(
  ends: Endpoint[],
  fx: Fixtures,
): Promise<{ kinds: KindUnderTest[]; problems: string[] }> {
  const kinds: KindUnderTest[] = [];
  const problems: string[] = [];
  for (const kind of KINDS) {
    const name = kind.fixedName ?? (kind.ipName ? "10.9.0.1" : "baseline");
    const [ref, real] = await Promise.all(ends.map((e) => answer(e, kind, fx, { name })));
    if (real?.code !== 201)
      problems.push(`${kindId(kind)}: the real server refuses the minimal object: ${JSON.stringify(real)}`);
    else kinds.push(kind);
    if (real?.code === 201 && ref?.code !== 201)
      problems.push(`${kindId(kind)}: reference refuses the minimal object: ${JSON.stringify(ref)}`);
  }
  return { kinds, problems };
}

async function runAll<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T);
      }
    }),
  );
  return out;
}

interface Outcome {
  readonly c: DiffCase;
  readonly reference: Answer;
  readonly real: Answer;
}

async function main(): Promise<number> {
  const { seeds, cases: count, out } = args(process.argv.slice(2));
  const accepted = await loadAccepted(join(repoRoot, "docs/divergences.md"));
  const results: (SeedResult & { differing: Outcome[] })[] = [];
  for (const seed of seeds) results.push(await runSeed(seed, count, accepted));
  const differing = results.flatMap((r) => r.differing.map((o) => ({ seed: r.seed, ...o })));
  if (out) writeFileSync(out, JSON.stringify({ outcomes: differing }, null, 2));
  printSeedSummary(results, replay(count));
  return results.some((r) => r.failed) ? 1 : 0;
}

async function runSeed(
  seed: number,
  count: number,
  accepted: Awaited<ReturnType<typeof loadAccepted>>,
): Promise<SeedResult & { differing: Outcome[] }> {
  console.log(`diff:server: seed ${seed}, ${count} cases (replay: ${replay(count)(seed)})`);
  const reference = await startServer({ cluster: false });
  const real = await startRealApiserver();
  try {
    const ends = [
      endpoint("reference", reference.url, reference.token, reference.ca as string),
      endpoint("real", real.url, real.token, real.caPem),
    ];
    const fx: Fixtures = { ns: NAMESPACE, caPem: reference.ca as string, csrBase64: csrBase64() };
    for (const e of ends) {
      await e.send("POST", "/api/v1/namespaces", { metadata: { name: NAMESPACE } });
      // Pods need their service account (no controller-manager creates `default` here).
      await e.send("POST", `/api/v1/namespaces/${NAMESPACE}/serviceaccounts`, {
        metadata: { name: "default" },
      });
    }
    const { kinds, problems } = await baseline(ends, fx);
    for (const p of problems) console.log(`baseline: ${p}`);
    const specCases = generateSpecCases(kinds, seed, fx);
    console.log(`diff:server: ${count} metadata cases and ${specCases.length} spec cases`);
    const statusCases = generateStatusCases(kinds, seed, STATUS_CASES_PER_KIND);
    console.log(`diff:server: and ${statusCases.length} status cases`);
    const cases = [...generateCases(kinds, seed, count), ...specCases, ...statusCases];
    const outcomes = await runAll(cases, CONCURRENCY, async (c): Promise<Outcome> => {
      const [ref, re] = await Promise.all(
        ends.map((e) => (c.status ? statusAnswer(e, c, fx) : answer(e, c.kind, fx, c.metadata, c.body))),
      );
      return { c, reference: ref as Answer, real: re as Answer };
    });
    return { seed, ...report(outcomes, problems, accepted) };
  } finally {
    await real.stop();
    await reference.stop();
  }
}

function report(
  outcomes: readonly Outcome[],
  baselineProblems: readonly string[],
  accepted: Awaited<ReturnType<typeof loadAccepted>>,
): { failed: boolean; differing: Outcome[] } {
  const differing = outcomes.filter((o) => !sameAnswer(o.reference, o.real));
  const unaccepted = differing.filter((o) => !accepted.some((a) => a.matches(o.c.id)));
  const byId = new Map<string, Outcome[]>();
  for (const o of unaccepted) byId.set(o.c.id, [...(byId.get(o.c.id) ?? []), o]);
  for (const [id, list] of byId) {
    const o = list[0] as Outcome;
    console.log(`DIFF ${id} (${list.length}x) metadata=${JSON.stringify(o.c.metadata).slice(0, 200)}`);
    console.log(`  reference: ${JSON.stringify(o.reference)}`);
    console.log(`  real:      ${JSON.stringify(o.real)}`);
  }
  const agree = outcomes.length - differing.length;
  console.log(
    `diff:server: ${outcomes.length} cases, ${agree} agree, ${differing.length} disagree ` +
      `(${differing.length - unaccepted.length} accepted in docs/divergences.md, ${unaccepted.length} not)` +
      `; ${baselineProblems.length} baseline problems`,
  );
  const failed = unaccepted.length > 0 || baselineProblems.some((p) => p.includes("reference refuses"));
  return { failed, differing };
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
