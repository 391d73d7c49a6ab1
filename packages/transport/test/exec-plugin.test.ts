import path from "node:path";
import { describe, expect, it } from "vitest";
import { ExecAuth, ExecPluginError, type ExecPluginSpec, loadKubeconfig } from "../src/index.js";
import { writeFakePlugin } from "./helpers/exec-plugin.js";
import { simpleKubeconfig, writeKubeconfig } from "./helpers/kubeconfig.js";
import { rejectsWith } from "./helpers/rejection.js";
import { useTempDir } from "./helpers/temp-dir.js";

const tempDir = useTempDir();

const V1 = "client.authentication.k8s.io/v1";
const V1BETA1 = "client.authentication.k8s.io/v1beta1";

function spec(command: string, overrides: Partial<ExecPluginSpec> = {}): ExecPluginSpec {
  return {
    command,
    args: [],
    env: [],
    apiVersion: V1,
    interactiveMode: "Never",
    provideClusterInfo: false,
    ...overrides,
  };
}

const execError = (p: Promise<unknown>) => rejectsWith(p, ExecPluginError);

describe("exec credential plugins from a kubeconfig", () => {
  it("runs a v1 plugin (relative command, args, env) and passes cluster info", async () => {
    const plugin = writeFakePlugin(path.join(tempDir(), "bin"), "plugin", {
      apiVersion: V1,
      tokenPrefix: "tok",
    });
    const file = writeKubeconfig(
      tempDir(),
      "config",
      simpleKubeconfig({
        server: "https://kube.example:6443",
        cluster: {
          "certificate-authority-data": Buffer.from("CA").toString("base64"),
          "tls-server-name": "kube.internal",
          extensions: [{ name: "client.authentication.k8s.io/exec", extension: { audience: "kube" } }],
        },
        user: {
          exec: {
            apiVersion: V1,
            command: "./bin/plugin",
            args: ["get-token", "--cluster", "c"],
            env: [{ name: "PLUGIN_ENV", value: "from-kubeconfig" }],
            interactiveMode: "Never",
            provideClusterInfo: true,
          },
        },
      }),
    );
    const conn = await (await loadKubeconfig({ path: file })).resolve({}, { stdinIsTTY: false });
    expect(await conn.auth.credentials()).toEqual({ authorization: "Bearer tok-1" });
    expect(plugin.lastArgs()).toEqual(["get-token", "--cluster", "c"]);
    expect(plugin.lastEnv("PLUGIN_ENV")).toBe("from-kubeconfig");
    expect(plugin.lastExecInfo()).toEqual({
      apiVersion: V1,
      kind: "ExecCredential",
      spec: {
        interactive: false,
        cluster: {
          server: "https://kube.example:6443",
          "tls-server-name": "kube.internal",
          "certificate-authority-data": Buffer.from("CA").toString("base64"),
          config: { audience: "kube" },
        },
      },
    });
  });

  it("runs a v1beta1 plugin (interactiveMode defaults to IfAvailable) without cluster info", async () => {
    const plugin = writeFakePlugin(tempDir(), "beta", { apiVersion: V1BETA1, tokenPrefix: "beta" });
    const file = writeKubeconfig(
      tempDir(),
      "config",
      simpleKubeconfig({ user: { exec: { apiVersion: V1BETA1, command: plugin.command } } }),
    );
    const conn = await (await loadKubeconfig({ path: file })).resolve({}, { stdinIsTTY: false });
    expect(await conn.auth.credentials()).toEqual({ authorization: "Bearer beta-1" });
    expect(plugin.lastExecInfo()).toEqual({
      apiVersion: V1BETA1,
      kind: "ExecCredential",
      spec: { interactive: false },
    });
  });
});

describe("ExecAuth caching and refresh", () => {
  it("caches credentials until expirationTimestamp", async () => {
    const expiry = "2030-01-01T00:00:00Z";
    const plugin = writeFakePlugin(tempDir(), "p", {
      apiVersion: V1,
      tokenPrefix: "t",
      expirationTimestamp: expiry,
    });
    let now = Date.parse(expiry) - 60_000;
    const auth = new ExecAuth({ plugin: spec(plugin.command), now: () => now });
    expect(await auth.credentials()).toEqual({ authorization: "Bearer t-1" });
    expect(await auth.credentials()).toEqual({ authorization: "Bearer t-1" });
    expect(plugin.runs()).toBe(1);
    now = Date.parse(expiry) + 1;
    expect(await auth.credentials()).toEqual({ authorization: "Bearer t-2" });
    expect(plugin.runs()).toBe(2);
  });

  it("without an expiry keeps credentials until a 401, then runs the plugin once more", async () => {
    const plugin = writeFakePlugin(tempDir(), "p", { apiVersion: V1, tokenPrefix: "t" });
    const auth = new ExecAuth({ plugin: spec(plugin.command) });
    const rejected = await auth.credentials();
    await auth.credentials();
    expect(plugin.runs()).toBe(1);
    expect(await auth.refreshAfterUnauthorized(rejected)).toBe(true);
    expect(plugin.runs()).toBe(2);
    expect(await auth.credentials()).toEqual({ authorization: "Bearer t-2" });
    // A second request that also failed with the old credentials does not run the plugin again.
    expect(await auth.refreshAfterUnauthorized(rejected)).toBe(true);
    expect(plugin.runs()).toBe(2);
  });

  it("shares one plugin run between concurrent callers", async () => {
    const plugin = writeFakePlugin(tempDir(), "p", { apiVersion: V1, tokenPrefix: "t" });
    const auth = new ExecAuth({ plugin: spec(plugin.command) });
    const all = await Promise.all([auth.credentials(), auth.credentials(), auth.credentials()]);
    expect(new Set(all).size).toBe(1);
    expect(plugin.runs()).toBe(1);
  });

  it("returns client certificates", async () => {
    const plugin = writeFakePlugin(tempDir(), "p", {
      apiVersion: V1,
      clientCertificateData: "CERT",
      clientKeyData: "KEY",
    });
    const auth = new ExecAuth({ plugin: spec(plugin.command) });
    expect(await auth.credentials()).toEqual({ clientCertificate: { cert: "CERT", key: "KEY" } });
  });
});

describe("exec plugin failures", () => {
  const SECRET = "eyJ-secret-token-value";

  it("a missing executable gives a typed error with the install hint", async () => {
    const hint = "Install it with: brew install kubesdk-test-plugin";
    const auth = new ExecAuth({ plugin: spec("kubesdk-no-such-plugin-7f3a", { installHint: hint }) });
    const err = await execError(auth.credentials());
    expect(err.code).toBe("EXEC_PLUGIN_NOT_FOUND");
    expect(err.installHint).toBe(hint);
    expect(err.message).toContain("kubesdk-no-such-plugin-7f3a");
    expect(err.message).toContain(hint);
  });

  it("output that is not JSON is reported without echoing it", async () => {
    const plugin = writeFakePlugin(tempDir(), "p", {
      apiVersion: V1,
      rawOutput: `{"status":{"token":"${SECRET}"`,
    });
    const err = await execError(new ExecAuth({ plugin: spec(plugin.command) }).credentials());
    expect(err.code).toBe("EXEC_PLUGIN_BAD_OUTPUT");
    expect(err.message).not.toContain(SECRET);
    expect(JSON.stringify(err.cause ?? null)).not.toContain(SECRET);
  });

  it("an ExecCredential of another apiVersion, or without credentials, is rejected", async () => {
    const other = writeFakePlugin(tempDir(), "other", { apiVersion: V1BETA1, tokenPrefix: SECRET });
    const wrongVersion = await execError(new ExecAuth({ plugin: spec(other.command) }).credentials());
    expect(wrongVersion.message).toContain(`"${V1BETA1}", configured "${V1}"`);
    expect(wrongVersion.message).not.toContain(SECRET);
    const empty = writeFakePlugin(tempDir(), "empty", { apiVersion: V1 });
    const noCreds = await execError(new ExecAuth({ plugin: spec(empty.command) }).credentials());
    expect(noCreds.message).toContain("neither a token nor a client certificate");
  });

  it("a non-zero exit code", async () => {
    const plugin = writeFakePlugin(tempDir(), "p", { apiVersion: V1, tokenPrefix: "t", exitCode: 3 });
    const err = await execError(new ExecAuth({ plugin: spec(plugin.command) }).credentials());
    expect(err.code).toBe("EXEC_PLUGIN_FAILED");
    expect(err.message).toContain("exited with code 3");
  });

  it("interactiveMode Always without a terminal", async () => {
    const plugin = writeFakePlugin(tempDir(), "p", { apiVersion: V1, tokenPrefix: "t" });
    const auth = new ExecAuth({
      plugin: spec(plugin.command, { interactiveMode: "Always" }),
      stdinIsTTY: false,
    });
    expect((await execError(auth.credentials())).code).toBe("EXEC_PLUGIN_NEEDS_TERMINAL");
    expect(plugin.runs()).toBe(0);
  });
});
