/**
 * The `kubesdk-server` command: starts in the foreground with a kubeconfig and seed objects, logs
 * one line per request with --verbose, stops on SIGTERM, never prints the admin token, and rejects bad
 * flags with a clear message.
 * Reason for reference-only: it tests the reference server's own command line.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { kubectlFor } from "../support/kubectl.js";
import { portForward, roundTrip, stop } from "../support/port-forward.js";
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
  let stdout = "";
  proc.stderr?.on("data", (c) => {
    stderr += c;
  });
  proc.stdout?.on("data", (c) => {
    stdout += c;
  });
  const nextLine = async (pred: (l: string) => boolean) => {
    for (;;) {
      const r = await lines.next();
      if (r.done) throw new Error(`kubesdk-server ended: ${stderr}`);
      if (pred(r.value)) return r.value;
    }
  };
  const exited = new Promise<number | null>((resolve) => proc.on("close", resolve));
  return { proc, nextLine, exited, stderr: () => stderr, output: () => stdout.split("\n") };
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

  it("keeps the admin token out of its output, writing a private kubeconfig when none is asked for", async () => {
    const server = start(["--port", "0", "--verbose"]);
    await server.nextLine((l) => l.startsWith("kubesdk-server listening on "));
    const line = await server.nextLine((l) => l.startsWith("kubeconfig written to "));
    const path = /^kubeconfig written to (\S+):/.exec(line)?.[1] as string;
    expect(statSync(path).mode & 0o077).toBe(0);
    const token = /token: (\S+)/.exec(readFileSync(path, "utf8"))?.[1] as string;
    expect(token.length).toBeGreaterThan(10);
    const kubectl = kubectlFor(() => path);
    expect((await kubectl("get", "ns", "default", "-o", "name")).stdout.trim()).toBe("namespace/default");
    const logged = await server.nextLine((l) => l.includes("/api/v1/namespaces/default"));
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(`${server.output().join("\n")}\n${logged}`).not.toContain(token);
  });

  it("kubectl run then kubectl port-forward against the simulated cluster of a --cluster-config", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kubesdk-cli-"));
    const kubeconfig = join(dir, "kubeconfig");
    const config = join(dir, "cluster.yaml");
    writeFileSync(
      config,
      "apiVersion: kubesdk.dev/v1alpha1\nkind: SimulatedCluster\nnodes:\n  - name: worker-a\n    labels: { zone: a }\n  - name: worker-b\n    labels: { zone: b }\n",
    );
    const server = start(["--port", "0", "--kubeconfig", kubeconfig, "--cluster-config", config]);
    await server.nextLine((l) => l.startsWith("kubeconfig written to "));
    const kubectl = kubectlFor(() => kubeconfig);
    expect(
      (
        await kubectl(
          "run",
          "box",
          "--image=busybox",
          "--overrides",
          '{"spec":{"nodeSelector":{"zone":"b"}}}',
        )
      ).stdout.trim(),
    ).toBe("pod/box created");
    expect((await kubectl("wait", "--for=condition=Ready", "pod/box", "--timeout=30s")).code).toBe(0);
    expect(
      (await kubectl("get", "pod", "box", "-o", "jsonpath={.spec.nodeName} {.status.phase}")).stdout,
    ).toBe("worker-b Running");
    const forward = portForward(kubeconfig, "default", "pod/box", 80, {});
    try {
      expect(await roundTrip(await forward.local, "through the tunnel")).toBe("through the tunnel");
    } finally {
      await stop(forward.child);
    }
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  it("rejects a bad cluster document with a message naming the field", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kubesdk-cli-"));
    const config = join(dir, "cluster.yaml");
    writeFileSync(
      config,
      "kind: SimulatedCluster\nnodes:\n  - name: n1\n    taints: [{ key: k, effect: Sometimes }]\n",
    );
    const server = start(["--port", "0", "--cluster-config", config]);
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain(
      `${config}: nodes[0].taints[0].effect: must be NoSchedule, PreferNoSchedule or NoExecute`,
    );
  });

  it("rejects a bad flag value with a message naming the flag", async () => {
    const server = start(["--port", "99999"]);
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain("--port: not a port number: 99999");
  });
});
