/**
 * Helpers of the example operator's suite: the URL path of WebApps, waiting until the API server
 * calls the operator's webhooks (it picks up new configurations asynchronously), and running the
 * example program as its own process.
 */
import { spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { vi } from "vitest";
import { webAppDefinition } from "../../examples/operator/webapp.js";
import type { TestTarget } from "../support/target.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export const webAppPath = (namespace: string, version: string, name = "") =>
  `/apis/${webAppDefinition.group}/${version}/namespaces/${namespace}/webapps${name ? `/${name}` : ""}`;

/**
 * Retries dry-run creates until one comes back defaulted (the mutating webhook in effect) and an
 * image tagged latest is refused (the validating webhook in effect).
 */
export async function untilWebhooksAct(t: TestTarget, namespace: string): Promise<void> {
  let attempt = 0;
  const probe = (image: string) =>
    t.call("POST", `${webAppPath(namespace, "v1")}?dryRun=All`, {
      body: {
        apiVersion: `${webAppDefinition.group}/v1`,
        kind: webAppDefinition.kind,
        metadata: { name: `probe-${++attempt}` },
        spec: { image },
      },
    });
  await vi.waitFor(
    async () => {
      const defaulted = await probe("nginx:1.27");
      if (defaulted.json?.spec?.replicas !== 1) throw new Error(`not defaulted yet: ${defaulted.text}`);
      const refused = await probe("nginx:latest");
      if (refused.status !== 403) throw new Error(`not validated yet: ${refused.text}`);
    },
    { timeout: 30_000, interval: 50 },
  );
}

/** Runs examples/operator/main.ts with `args`; resolves with its exit code and its whole output. */
export function runOperatorProgram(args: readonly string[]): Promise<{ code: number; output: string }> {
  const main = resolve(repoRoot, "examples/operator/main.ts");
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", main, ...args], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      // A run that hangs is stopped, so the suite reports it instead of leaving a process behind.
      signal: AbortSignal.timeout(110_000),
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", (err) => (err.name === "AbortError" ? undefined : fail(err)));
    child.on("close", (code, signal) => done({ code: code ?? (signal ? 1 : 0), output }));
  });
}
