/**
 * The `kubesdk-server` command: starts in the foreground with a kubeconfig and seed objects, logs
 * one line per request with --verbose, stops on SIGTERM, and rejects bad flags with a clear message.
 * Reason for reference-only: it tests the reference server's own command line.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { kubectlFor } from "../support/kubectl.js";
import { targetKind } from "../support/target.js";

const CLI = fileURLToPath(new URL("../../packages/server/src/cli.ts", import.meta.url));
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill("SIGKILL");
  child = undefined;
});

function start(args: string[]) {
  const proc = spawn(process.execPath, ["--conditions=source", "--import", "tsx", CLI, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  const lines = createInterface({ input: proc.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  let stderr = "";
  proc.stderr?.on("data", (c) => {
    stderr += c;
  });
  const nextLine = async (pred: (l: string) => boolean) => {
    for (;;) {
      const r = await lines.next();
      if (r.done) throw new Error(`kubesdk-server ended: ${stderr}`);
      if (pred(r.value)) return r.value;
    }
  };
  const exited = new Promise<number | null>((resolve) => proc.on("close", resolve));
  return { proc, nextLine, exited, stderr: () => stderr };
}

describe.runIf(targetKind === "reference")("kubesdk-server command", () => {
  it("serves seeded objects to kubectl, logs requests with --verbose, and stops on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kubesdk-cli-"));
    const kubeconfig = join(dir, "kubeconfig");
    const seed = join(dir, "seed.yaml");
    writeFileSync(
      seed,
      "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: seeded\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hello\n  namespace: seeded\ndata:\n  greeting: hi\n",
    );
    const server = start([
      "--port",
      "0",
      "--kubeconfig",
      kubeconfig,
      "--seed",
      seed,
      "--verbose",
      "--history-window",
      "500",
    ]);
    const listening = await server.nextLine((l) => l.startsWith("kubesdk-server listening on "));
    expect(listening).toMatch(/^kubesdk-server listening on https:\/\/127\.0\.0\.1:\d+$/);
    await server.nextLine((l) => l.startsWith("kubeconfig written to "));
    const kubectl = kubectlFor(() => kubeconfig);
    const got = await kubectl("-n", "seeded", "get", "configmap", "hello", "-o", "jsonpath={.data.greeting}");
    expect(got.stdout).toBe("hi");
    expect(await server.nextLine((l) => l.includes("/api/v1/namespaces/seeded/configmaps/hello"))).toMatch(
      /^GET .* 200 /,
    );
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  it("rejects a bad flag value with a message naming the flag", async () => {
    const server = start(["--port", "99999"]);
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain("--port: not a port number: 99999");
  });
});
