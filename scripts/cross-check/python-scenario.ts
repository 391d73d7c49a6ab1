/** Runs python_scenario.py (the official Python client) and reads its results. */
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { configMapName, deploymentName, labelSelector, namespaceFor } from "./fixtures.js";
import { CrossCheckError, type ScenarioRun } from "./step-result.js";

const script = join(dirname(fileURLToPath(import.meta.url)), "python_scenario.py");

export function runPythonScenario(kubeconfigPath: string, scratchDir: string): Promise<ScenarioRun> {
  const python = process.env.CROSS_CHECK_PYTHON ?? "python3";
  const params = JSON.stringify({
    namespace: namespaceFor("python"),
    configMapName,
    deploymentName,
    labelSelector,
  });
  return new Promise((resolve, reject) => {
    execFile(
      python,
      [script, kubeconfigPath, scratchDir, params],
      { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) {
          reject(
            new CrossCheckError("CLIENT_FAILED", `${python} ${script} failed: ${error.message}\n${stderr}`, {
              cause: error,
            }),
          );
          return;
        }
        try {
          resolve(JSON.parse(stdout) as ScenarioRun);
        } catch (cause) {
          reject(
            new CrossCheckError("CLIENT_FAILED", `python scenario printed no JSON: ${stdout.slice(0, 500)}`, {
              cause,
            }),
          );
        }
      },
    );
  });
}
