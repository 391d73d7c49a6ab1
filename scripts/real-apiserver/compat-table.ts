/**
 * Writes the compatibility table of docs/compatibility.md from the vitest reports test-versions.sh
 * keeps in a directory (<minor>.json, with <minor>.meta.json naming the build): passed / failed /
 * skipped per suite file per Kubernetes minor release, then every test whose outcome differs between
 * releases with the first line of its failure. Only the part between the markers is replaced.
 *
 * Usage: tsx scripts/real-apiserver/compat-table.ts <reports-dir> [--print]
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const docPath = join(repoRoot, "docs", "compatibility.md");
const startMarker = "<!-- compat-table:start (written by scripts/real-apiserver/compat-table.ts) -->";
const endMarker = "<!-- compat-table:end -->";
const pinnedMinor = (
  JSON.parse(readFileSync(join(repoRoot, "k8s-release.json"), "utf8")) as { kubernetes: string }
).kubernetes
  .split(".")
  .slice(0, 2)
  .join(".");

type Outcome = "passed" | "failed" | "skipped";

/**
 * Tests that assert the pinned release itself, so they fail on every older one by design. Their
 * failures on an older release are shown in the table but do not fail the run.
 */
const pinnedReleaseTests: ReadonlySet<string> = new Set([
  "test/server/discovery-auth.test.ts › discovery /version names the pinned release",
  // certificates.k8s.io/v1 ClusterTrustBundles are served from 1.37 on (404 before).
  "test/server/control-plane.test.ts › what the components read at start lists ClusterTrustBundles by spec.signerName",
  // 1.35 prints one Node cell differently from the 1.37 printers the reference server follows.
  "test/server/tables.test.ts › Tables of built-in kinds services, config maps, secrets, service accounts, namespaces, nodes, leases",
  // CRDs print their own columns from 1.37 on (Name and Created At before).
  "test/server/tables-api.test.ts › Tables of CRDs and API services custom resource definitions: scope, versions (storage first), created at, and wide names",
  // storagemigration.k8s.io/v1 StorageVersionMigrations are served from 1.37 on.
  "test/server/tables-api.test.ts › Tables of storage version migrations and component statuses storage version migrations: resource.group and the outcome; Name without the name format",
  // Name rules of certificates.k8s.io/v1 ClusterTrustBundles (served from 1.37 on, 404 before).
  "test/server/names-metadata.test.ts › ClusterTrustBundle names follow the signer accepts <signer with : for />:<name>, as kube-controller-manager's publisher names them",
  "test/server/names-metadata.test.ts › ClusterTrustBundle names follow the signer refuses a name without the signer prefix",
  "test/server/names-metadata.test.ts › ClusterTrustBundle names follow the signer refuses a colon in the name of a bundle without signer",
  // Service names: DNS-1035 labels up to 1.35, DNS-1123 labels (dots refused, leading digits
  // accepted) once the relaxed Service name rule is on by default.
  "test/server/names-metadata.test.ts › Service names are DNS-1123 labels refuses a dotted name",
  "test/server/names-metadata.test.ts › Service names are DNS-1123 labels accepts a name that starts with a digit",
  // admissionregistration.k8s.io/v1 MutatingAdmissionPolicies are served from 1.36 on.
  "test/server/tables-admission.test.ts › Tables of admission configuration mutating admission policies and bindings",
  // resource.k8s.io/v1 DeviceTaintRules are served from 1.37 on.
  "test/server/tables-admission.test.ts › Tables of flow control and DRA kinds device taint rules: the taint and the time since it was added",
  // The service proxy finds endpoints through EndpointSlices from 1.37 on (an endpointless Service
  // is 503); before, it reads the Endpoints object, and a Service without one is 404.
  "test/client/pod-io-tools.test.ts › pod tool helpers proxies to a Service through its endpoint's pod, by port name or number",
]);

interface VersionRun {
  readonly minor: string;
  readonly build: string;
  readonly seconds: number | undefined;
  /** suite file → test full name → outcome */
  readonly suites: Map<string, Map<string, { outcome: Outcome; failure: string | undefined }>>;
}

interface VitestReport {
  testResults?: {
    name: string;
    message?: string;
    assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

function outcomeOf(status: string): Outcome {
  if (status === "passed") return "passed";
  if (status === "failed") return "failed";
  return "skipped";
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes in failure messages
const ansiColour = /\u001b\[[0-9;]*m/g;

function firstLine(text: string | undefined): string | undefined {
  const line = text
    ?.replace(ansiColour, "")
    .split("\n")
    .find((l) => l.trim() !== "");
  return line === undefined ? undefined : line.trim().slice(0, 160).replace(/\|/g, "\\|");
}

function readRun(dir: string, file: string): VersionRun {
  const minor = file.replace(/\.json$/, "");
  const report = JSON.parse(readFileSync(join(dir, file), "utf8")) as VitestReport;
  const metaPath = join(dir, `${minor}.meta.json`);
  const meta = existsSync(metaPath)
    ? (JSON.parse(readFileSync(metaPath, "utf8")) as { build?: string; seconds?: number })
    : {};
  const suites: VersionRun["suites"] = new Map();
  for (const result of report.testResults ?? []) {
    const suite = relative(repoRoot, result.name);
    const tests = new Map<string, { outcome: Outcome; failure: string | undefined }>();
    for (const a of result.assertionResults ?? []) {
      tests.set(a.fullName, { outcome: outcomeOf(a.status), failure: firstLine(a.failureMessages?.[0]) });
    }
    // A suite that failed to load has no tests: count it as one failure.
    if (tests.size === 0 && result.message) {
      tests.set("(suite did not load)", { outcome: "failed", failure: firstLine(result.message) });
    }
    suites.set(suite, tests);
  }
  return { minor, build: meta.build ?? "?", seconds: meta.seconds, suites };
}

function compareMinor(a: string, b: string): number {
  const [am = 0, an = 0] = a.split(".").map(Number);
  const [bm = 0, bn = 0] = b.split(".").map(Number);
  return bm - am || bn - an; // newest first
}

function count(tests: ReadonlyMap<string, { outcome: Outcome }> | undefined): Record<Outcome, number> {
  const c = { passed: 0, failed: 0, skipped: 0 };
  for (const t of tests?.values() ?? []) c[t.outcome]++;
  return c;
}

function cell(c: Record<Outcome, number> | undefined): string {
  if (!c) return "not run";
  const parts = [`${c.passed} passed`];
  if (c.failed) parts.push(`**${c.failed} failed**`);
  if (c.skipped) parts.push(`${c.skipped} skipped`);
  return parts.join(", ");
}

export function renderTable(runs: readonly VersionRun[]): string {
  const suites = [...new Set(runs.flatMap((r) => [...r.suites.keys()]))].sort();
  const lines: string[] = [];
  lines.push(
    `| Suite | ${runs.map((r) => `${r.minor} (${r.build.replace(/_linux.*$/, "")})`).join(" | ")} |`,
  );
  lines.push(`| --- | ${runs.map(() => "---").join(" | ")} |`);
  for (const suite of suites) {
    lines.push(
      `| ${suite} | ${runs.map((r) => cell(r.suites.has(suite) ? count(r.suites.get(suite)) : undefined)).join(" | ")} |`,
    );
  }
  const totals = runs.map((r) => {
    const all = new Map([...r.suites.values()].flatMap((t) => [...t.entries()]));
    return cell(count(all));
  });
  lines.push(`| **All** | ${totals.join(" | ")} |`);
  lines.push(
    `| Run time | ${runs.map((r) => (r.seconds === undefined ? "?" : `${r.seconds}s`)).join(" | ")} |`,
  );
  lines.push("", ...renderDifferences(runs, suites));
  return lines.join("\n");
}

function renderDifferences(runs: readonly VersionRun[], suites: readonly string[]): string[] {
  const rows: string[] = [];
  for (const suite of suites) {
    const names = new Set(runs.flatMap((r) => [...(r.suites.get(suite)?.keys() ?? [])]));
    for (const name of [...names].sort()) {
      const outcomes = runs.map((r) => r.suites.get(suite)?.get(name));
      if (
        new Set(outcomes.map((o) => o?.outcome ?? "absent")).size === 1 &&
        outcomes[0]?.outcome !== "failed"
      ) {
        continue;
      }
      const detail = runs
        .map((r, i) => {
          const o = outcomes[i];
          return o?.outcome === "failed" ? `${r.minor}: ${o.failure ?? "failed"}` : undefined;
        })
        .filter((d) => d !== undefined);
      const id = `${suite} › ${name}`;
      const cells = outcomes
        .map((o, i) =>
          o?.outcome === "failed" && runs[i]?.minor !== pinnedMinor && isReleaseBound(suite, id)
            ? "failed (release difference)"
            : (o?.outcome ?? "absent"),
        )
        .join(" | ");
      rows.push(`| ${suite} › ${name.replace(/\|/g, "\\|")} | ${cells} | ${detail.join("<br>")} |`);
    }
  }
  if (rows.length === 0) return ["Every test has the same outcome on every release."];
  return [
    "Tests whose outcome differs between releases (or that fail anywhere):",
    "",
    `| Test | ${runs.map((r) => r.minor).join(" | ")} | Failure |`,
    `| --- | ${runs.map(() => "---").join(" | ")} | --- |`,
    ...rows,
  ];
}

/**
 * The server's contract suites (test/server/) hold the reference server to kube-apiserver 1.37.1's
 * answers: its validation messages, new kinds and rules. Each release changes some of those, so on
 * an older release these suites' failures are release differences, shown in the table with their
 * first failure line, not faults of kubesdk. Every other suite tests the SDK itself (client,
 * informers, apply, controllers), and must pass on every supported release but for the tests above.
 */
const pinnedReleaseSuites = /^test\/server\//;

function isReleaseBound(suite: string, id: string): boolean {
  return pinnedReleaseTests.has(id) || pinnedReleaseSuites.test(suite);
}

/** Failures that fail test-versions.sh: any on the pinned release; on older ones, SDK suites only. */
function unexpectedFailures(runs: readonly VersionRun[]): string[] {
  const out: string[] = [];
  for (const run of runs) {
    for (const [suite, tests] of run.suites) {
      for (const [name, t] of tests) {
        const id = `${suite} › ${name}`;
        if (t.outcome !== "failed" || (run.minor !== pinnedMinor && isReleaseBound(suite, id))) continue;
        out.push(`${run.minor}: ${id}`);
      }
    }
  }
  return out;
}

function main(argv: readonly string[]): number {
  const dir = argv.find((a) => !a.startsWith("--"));
  if (!dir) {
    console.error("usage: compat-table.ts <reports-dir> [--print]");
    return 2;
  }
  const files = readdirSync(dir).filter((f) => /^\d+\.\d+\.json$/.test(f));
  if (files.length === 0) {
    console.error(`compat-table: no <minor>.json reports in ${dir}`);
    return 1;
  }
  const runs = files.map((f) => readRun(dir, f)).sort((a, b) => compareMinor(a.minor, b.minor));
  const table = renderTable(runs);
  const unexpected = unexpectedFailures(runs);
  for (const u of unexpected) console.error(`compat-table: unexpected failure on ${u}`);
  const verdict = unexpected.length === 0 ? 0 : 1;
  if (argv.includes("--print")) {
    console.log(table);
    return verdict;
  }
  const doc = readFileSync(docPath, "utf8");
  const start = doc.indexOf(startMarker);
  const end = doc.indexOf(endMarker);
  if (start < 0 || end < start) {
    console.error(`compat-table: ${relative(repoRoot, docPath)} has no table markers`);
    return 1;
  }
  writeFileSync(docPath, `${doc.slice(0, start + startMarker.length)}\n${table}\n${doc.slice(end)}`);
  console.log(
    `compat-table: wrote ${relative(repoRoot, docPath)} from ${runs.map((r) => r.minor).join(", ")}`,
  );
  return verdict;
}

process.exitCode = main(process.argv.slice(2));
