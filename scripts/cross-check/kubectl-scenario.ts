/** The scenario driven through kubectl, one command per step. */
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { configMapName, deploymentName, labelSelector, namespaceFor, type StepName } from "./fixtures.js";
import type { ScenarioRun, StepResult } from "./step-result.js";

const kubectlPath = process.env.KUBECTL ?? "kubectl";

interface KubectlOutcome {
  exitCode: number;
  /** Parsed when it is JSON (every `-o json` step), else the text. */
  stdout: unknown;
  stderr: string;
}

function kubectl(kubeconfigPath: string, args: readonly string[]): Promise<KubectlOutcome> {
  return new Promise((resolve) => {
    execFile(
      kubectlPath,
      [`--kubeconfig=${kubeconfigPath}`, ...args],
      { timeout: 60_000 },
      (error, stdout, stderr) => {
        const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        let parsed: unknown = stdout;
        try {
          parsed = JSON.parse(stdout);
        } catch {
          // not JSON: keep the text
        }
        resolve({ exitCode, stdout: parsed, stderr });
      },
    );
  });
}

export async function runKubectlScenario(kubeconfigPath: string, scratchDir: string): Promise<ScenarioRun> {
  const results: StepResult[] = [];
  const step = async (name: StepName, args: readonly string[]): Promise<KubectlOutcome> => {
    const outcome = await kubectl(kubeconfigPath, args);
    results.push({ step: name, outcome });
    return outcome;
  };
  const inNs = ["--namespace", namespaceFor("kubectl")];
  const file = (name: string) => join(scratchDir, name);
  // kubectl validates manifests it sends (create -f, replace -f) against the server's OpenAPI
  // document by default. That gets one step of its own; the later steps skip it, so a server
  // without OpenAPI does not hide every difference after it.
  const noValidation = "--validate=false";

  await step("validate-with-openapi", [
    "--namespace=default",
    "create",
    "-f",
    file("deployment.json"),
    "--dry-run=server",
    "-o",
    "json",
  ]);
  // kubectl's typed commands (create namespace, create configmap, label, …) send protobuf bodies,
  // unlike `create -f`, which sends JSON; a namespace of its own keeps a failure here from
  // cascading into the later steps.
  await step("create-namespace-protobuf", [
    "create",
    "namespace",
    `${namespaceFor("kubectl")}-protobuf`,
    "-o",
    "json",
  ]);
  await step("create-namespace", ["create", noValidation, "-f", file("namespace.json"), "-o", "json"]);
  const created = await step("create-configmap", [
    ...inNs,
    "create",
    noValidation,
    "-f",
    file("configmap.json"),
    "-o",
    "json",
  ]);
  await step("get-configmap", [...inNs, "get", "configmap", configMapName, "-o", "json"]);
  await step("list-configmaps-by-label", [...inNs, "get", "configmaps", "-l", labelSelector, "-o", "json"]);
  await step("patch-configmap-merge", [
    ...inNs,
    "patch",
    "configmap",
    configMapName,
    "--type=merge",
    "-p",
    '{"data":{"b":"2"}}',
    "-o",
    "json",
  ]);
  // The object as created carries the resourceVersion from before the patch.
  const stale = typeof created.stdout === "object" && created.stdout !== null ? created.stdout : {};
  await writeFile(file("stale-configmap.json"), JSON.stringify({ ...stale, data: { a: "stale" } }));
  await step("replace-configmap-stale", [
    ...inNs,
    "replace",
    noValidation,
    "-f",
    file("stale-configmap.json"),
    "-o",
    "json",
  ]);
  await step("delete-configmap", [...inNs, "delete", "configmap", configMapName]);
  await step("list-configmaps-after-delete", [
    ...inNs,
    "get",
    "configmaps",
    "-l",
    labelSelector,
    "-o",
    "json",
  ]);
  await step("create-deployment", [
    ...inNs,
    "create",
    noValidation,
    "-f",
    file("deployment.json"),
    "-o",
    "json",
  ]);
  await step("get-deployment", [...inNs, "get", "deployment", deploymentName, "-o", "json"]);
  return results;
}
