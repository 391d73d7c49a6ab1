/**
 * The PodSecurity differential: seeded pods (generate.ts) sent with `dryRun=All` to the embedded
 * server and to a real kube-apiserver 1.37.1, into namespaces labelled for each level and some
 * older policy versions, and as the templates of each workload kind in turn (warnings only); every answer pair is
 * compared: status code, reason, message and the warnings (as a set). Prints each disagreement
 * with both answers, `N cases, N agree, N disagree` and the seed; exits 1 on a disagreement.
 *
 *   pnpm diff:pod-security [--seed N] [--pods N] [--all-versions] [--verbose] [--reference-only]
 *
 * `--all-versions` adds a namespace warning for the restricted level at every version v1.0–v1.37,
 * which pins where each check's versions begin.
 */
import { parseArgs } from "node:util";
import { Random } from "../cel/random.js";
import { type Reply, type Server, startReal, startReference } from "../cel/servers.js";
import { randomPod } from "./generate.js";
import { WORKLOADS } from "./workloads.js";

const { values } = parseArgs({
  options: {
    seed: { type: "string" },
    pods: { type: "string", default: "150" },
    verbose: { type: "boolean", default: false },
    // The embedded server on both sides: checks the generator without a real apiserver.
    "reference-only": { type: "boolean", default: false },
    "all-versions": { type: "boolean", default: false },
  },
});
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);

const P = "pod-security.kubernetes.io/";
/** Namespaces and their labels: each level enforced and warned, and older policy versions. */
const NAMESPACES: Record<string, Record<string, string>> = {
  "psd-baseline": { [`${P}enforce`]: "baseline", [`${P}warn`]: "restricted" },
  "psd-restricted": { [`${P}enforce`]: "restricted" },
  "psd-warn": { [`${P}warn`]: "baseline", [`${P}audit`]: "restricted" },
  "psd-v1-24": {
    [`${P}enforce`]: "baseline",
    [`${P}enforce-version`]: "v1.24",
    [`${P}warn`]: "restricted",
    [`${P}warn-version`]: "v1.24",
  },
  "psd-v1-30": { [`${P}enforce`]: "restricted", [`${P}enforce-version`]: "v1.30" },
  "psd-v1-33": { [`${P}warn`]: "restricted", [`${P}warn-version`]: "v1.33" },
  "psd-v1-34": { [`${P}warn`]: "restricted", [`${P}warn-version`]: "v1.34" },
  "psd-v1-0": { [`${P}enforce`]: "restricted", [`${P}enforce-version`]: "v1.0" },
  "psd-v1-18": { [`${P}warn`]: "restricted", [`${P}warn-version`]: "v1.18" },
  "psd-v1-28": { [`${P}warn`]: "baseline", [`${P}warn-version`]: "v1.28" },
  "psd-v1-31": { [`${P}warn`]: "restricted", [`${P}warn-version`]: "v1.31" },
  "psd-v1-99": { [`${P}enforce`]: "baseline", [`${P}enforce-version`]: "v1.99" },
};

if (values["all-versions"])
  for (let minor = 0; minor <= 37; minor++)
    NAMESPACES[`psd-all-v1-${minor}`] = { [`${P}warn`]: "restricted", [`${P}warn-version`]: `v1.${minor}` };

interface Outcome {
  readonly status: number;
  readonly reason: string;
  readonly message: string;
  /** PodSecurity's warnings, sorted. */
  readonly warnings: readonly string[];
}

const isPodSecurity = (w: string) => w.includes("PodSecurity");
const outcome = (r: Reply): Outcome => ({
  status: r.status,
  reason: r.status >= 400 ? String(r.json?.reason ?? "") : "",
  message: r.status >= 400 ? String(r.json?.message ?? "") : "",
  warnings: r.warnings.filter(isPodSecurity).sort(),
});
/** The other warnings (the pod validation's), sorted: compared apart, as they are not this suite's subject. */
const otherWarnings = (r: Reply) => r.warnings.filter((w) => !isPodSecurity(w)).sort();
const same = (a: Outcome, b: Outcome) => JSON.stringify(a) === JSON.stringify(b);

async function both(servers: readonly Server[], method: string, path: string, body?: unknown) {
  return Promise.all(servers.map((s) => s.call(method, path, body)));
}

async function setUp(servers: readonly Server[]): Promise<void> {
  for (const [name, labels] of Object.entries(NAMESPACES)) {
    const made = await both(servers, "POST", "/api/v1/namespaces", { metadata: { name, labels } });
    for (const m of made)
      if (m.status !== 201) throw new Error(`namespace ${name}: ${m.status} ${JSON.stringify(m.json)}`);
    // kube-apiserver alone has no ServiceAccount controller; the embedded one may have made it already.
    await both(servers, "POST", `/api/v1/namespaces/${name}/serviceaccounts`, {
      metadata: { name: "default" },
    });
  }
}

async function main(): Promise<number> {
  const servers = await Promise.all([
    startReference(),
    values["reference-only"] ? startReference() : startReal(),
  ]);
  let cases = 0;
  const disagreements: string[] = [];
  const otherDiffers = new Map<string, number>();
  const record = (label: string, body: unknown, replies: Reply[]) => {
    cases++;
    const [ra, rb] = replies.map(otherWarnings) as [string[], string[]];
    for (const w of [...ra.filter((x) => !rb.includes(x)), ...rb.filter((x) => !ra.includes(x))]) {
      const key = `${ra.includes(w) ? "reference only" : "real only"}: ${w.replace(/\[\d+\]/g, "[*]")}`;
      otherDiffers.set(key, (otherDiffers.get(key) ?? 0) + 1);
    }
    const [a, b] = replies.map(outcome) as [Outcome, Outcome];
    if (same(a, b)) {
      if (values.verbose) console.log(`agree ${label}: ${a.status} ${a.message} ${a.warnings.join(" | ")}`);
      return;
    }
    disagreements.push(
      `${label}\n  request:   ${JSON.stringify(body)}\n  reference: ${JSON.stringify(a)}\n  real:      ${JSON.stringify(b)}`,
    );
  };
  try {
    await setUp(servers);
    const r = new Random(seed);
    for (let i = 0; i < Number(values.pods); i++) {
      const pod = randomPod(r);
      const name = `p${i}`;
      const body = {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name, annotations: pod.annotations },
        spec: pod.spec,
      };
      for (const ns of Object.keys(NAMESPACES))
        record(
          `pod ${name} in ${ns}`,
          body,
          await both(servers, "POST", `/api/v1/namespaces/${ns}/pods?dryRun=All`, body),
        );
      if (i % 3 === 0) {
        // The workload kinds take turns.
        const w = WORKLOADS[(i / 3) % WORKLOADS.length] as (typeof WORKLOADS)[number];
        const d = { metadata: { name: `w${i}` }, ...w.body(`w${i}`, pod) };
        for (const ns of ["psd-baseline", "psd-restricted", "psd-v1-30", "psd-warn"])
          record(
            `${w.kind} w${i} in ${ns}`,
            d,
            await both(servers, "POST", `/${w.path.replace("{ns}", ns)}?dryRun=All`, d),
          );
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  for (const d of disagreements) console.log(d);
  if (otherDiffers.size > 0) {
    console.log("warnings outside PodSecurity that differ (pod validation's; not counted):");
    for (const [w, n] of otherDiffers) console.log(`  ${n}× ${w}`);
  }
  console.log(
    `seed ${seed}: ${cases} cases, ${cases - disagreements.length} agree, ${disagreements.length} disagree`,
  );
  console.log(
    `replay: pnpm diff:pod-security --seed ${seed} --pods ${values.pods}${values["all-versions"] ? " --all-versions" : ""}`,
  );
  return disagreements.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);
