/**
 * One conformance test in its own e2e.test process: focused on the test's exact name, bounded by
 * ginkgo's suite timeout and, should the process not stop, a kill after a grace period.
 */
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export type TestResult = "pass" | "fail" | "timeout" | "error";

export interface TestOutcome {
  readonly name: string;
  readonly result: TestResult;
  readonly seconds: number;
  /** First line of the first failure (the test's, or the suite setup's). */
  readonly firstFailure?: string;
}

export interface RunOneOptions {
  readonly e2eBinary: string;
  /** The kubectl the framework runs (sig-cli tests, `kubectl explain` in api-machinery ones). */
  readonly kubectlPath: string;
  readonly kubeconfigPath: string;
  /** Directory for this test's log and JSON report. */
  readonly logDir: string;
  readonly timeoutSeconds: number;
}

/**
 * ginkgo's focus is a regular expression matched against the suite's description, a space and the
 * spec's full text; this one matches that text exactly at the end, after the description.
 */
export function exactFocus(name: string): string {
  return `(?:^|\\s)${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;
}

interface SpecReport {
  LeafNodeType: string;
  State: string;
  Failure?: { Message?: string; FailureNodeType?: string };
}

/** The outcome from ginkgo's JSON report: the It's state, or the setup's failure when no It ran. */
export function outcomeFromReport(name: string, seconds: number, reportJson: string): TestOutcome {
  const suites = JSON.parse(reportJson) as { SpecReports?: SpecReport[] }[];
  const specs = suites.flatMap((s) => s.SpecReports ?? []);
  const firstLine = (s: SpecReport) => s.Failure?.Message?.trim().split("\n")[0]?.slice(0, 300);
  const it = specs.find((s) => s.LeafNodeType === "It" && s.State !== "skipped" && s.State !== "pending");
  if (it?.State === "passed") return { name, result: "pass", seconds };
  if (it) {
    const result = it.State === "timedout" || it.State === "interrupted" ? "timeout" : "fail";
    return { name, result, seconds, firstFailure: `${it.State}: ${firstLine(it) ?? ""}` };
  }
  const setup = specs.find((s) => s.State !== "passed" && s.State !== "skipped" && s.Failure);
  if (setup)
    return { name, result: "error", seconds, firstFailure: `${setup.LeafNodeType}: ${firstLine(setup)}` };
  return { name, result: "error", seconds, firstFailure: "no spec matched the focus" };
}

function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9]+/g, "-").slice(0, 120);
}

export function runOne(name: string, options: RunOneOptions): Promise<TestOutcome> {
  const base = join(options.logDir, slug(name));
  const reportPath = `${base}.json`;
  const args = [
    `--kubeconfig=${options.kubeconfigPath}`,
    `--kubectl-path=${options.kubectlPath}`,
    "--provider=skeleton",
    `--ginkgo.focus=${exactFocus(name)}`,
    `--ginkgo.timeout=${options.timeoutSeconds}s`,
    `--ginkgo.json-report=${reportPath}`,
    "--ginkgo.no-color",
    "--ginkgo.v",
    `--report-dir=${options.logDir}`,
  ];
  const t0 = Date.now();
  return new Promise((resolve) => {
    const log = createWriteStream(`${base}.log`);
    const child = spawn(options.e2eBinary, args, { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    // ginkgo stops itself at its timeout and runs the cleanup; this is the bound when it does not.
    const killer = setTimeout(() => child.kill("SIGKILL"), (options.timeoutSeconds + 120) * 1000);
    const finish = (spawnError?: string) => {
      clearTimeout(killer);
      const seconds = Math.round((Date.now() - t0) / 1000);
      if (spawnError) return resolve({ name, result: "error", seconds, firstFailure: spawnError });
      if (!existsSync(reportPath))
        return resolve({ name, result: "timeout", seconds, firstFailure: "killed: no ginkgo report" });
      try {
        resolve(outcomeFromReport(name, seconds, readFileSync(reportPath, "utf8")));
      } catch (e) {
        resolve({ name, result: "error", seconds, firstFailure: `unreadable report: ${String(e)}` });
      }
    };
    child.once("error", (e) => finish(String(e)));
    child.once("close", () => finish());
  });
}
