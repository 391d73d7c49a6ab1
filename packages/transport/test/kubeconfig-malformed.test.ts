import { describe, expect, it } from "vitest";
import { KubeconfigError, loadKubeconfig } from "../src/index.js";
import { simpleKubeconfig, writeKubeconfig } from "./helpers/kubeconfig.js";
import { rejectsWith } from "./helpers/rejection.js";
import { useTempDir } from "./helpers/temp-dir.js";

const tempDir = useTempDir();

const _noEnv = {};

const kubeconfigError = (p: Promise<unknown>) => rejectsWith(p, KubeconfigError);

describe("malformed kubeconfigs", () => {
  const SECRET = "hunter2-very-secret";

  async function loadError(content: unknown): Promise<{ err: KubeconfigError; file: string }> {
    const file = writeKubeconfig(tempDir(), "config", content);
    const err = await kubeconfigError(loadKubeconfig({ path: file }).then((c) => c.resolve({}, { env: {} })));
    expect(err.message).not.toContain(SECRET);
    expect(err.file).toBe(file);
    return { err, file };
  }

  it("YAML syntax errors give the position, not the offending line", async () => {
    const { err, file } = await loadError(
      `users:\n- name: u\n  user:\n    token: "${SECRET}\n    other: [\n`,
    );
    expect(err.code).toBe("KUBECONFIG_SYNTAX");
    expect(err.message).toMatch(new RegExp(`^${file}: invalid YAML at line \\d+, column \\d+`));
  });

  it("wrong field types name the file and field path", async () => {
    const { err, file } = await loadError({
      users: [{ name: "u", user: { exec: { apiVersion: 7, command: "x" } } }],
    });
    expect(err.code).toBe("KUBECONFIG_INVALID");
    expect(err.fieldPath).toBe("users[0].user.exec.apiVersion");
    expect(err.message).toBe(`${file}: users[0].user.exec.apiVersion: expected string, got number`);
  });

  it("a numeric token is reported without its value", async () => {
    const { err } = await loadError(`users:\n- name: u\n  user:\n    token: 98765432101234\n`);
    expect(err.fieldPath).toBe("users[0].user.token");
    expect(err.message).not.toContain("98765432101234");
  });

  it("invalid base64 data is reported without its value", async () => {
    const { err } = await loadError(simpleKubeconfig({ user: { "client-key-data": `${SECRET}!!` } }));
    expect(err.fieldPath).toBe("users[0].user.client-key-data");
    expect(err.message).toContain("is not valid base64");
  });

  it("duplicate names within one file", async () => {
    const { err } = await loadError({
      clusters: [
        { name: "x", cluster: { server: "https://a" } },
        { name: "x", cluster: { server: "https://b" } },
      ],
    });
    expect(err.fieldPath).toBe("clusters[1].name");
    expect(err.message).toContain('duplicate name "x"');
  });

  it("a document that is not a mapping", async () => {
    const { err } = await loadError("- just\n- a list\n");
    expect(err.message).toContain("not a mapping");
  });

  it("unsupported exec apiVersion, even when a token takes precedence", async () => {
    const { err, file } = await loadError(
      simpleKubeconfig({
        user: { token: SECRET, exec: { apiVersion: "client.authentication.k8s.io/v1alpha1", command: "p" } },
      }),
    );
    expect(err.message).toBe(
      `${file}: users[0].user.exec.apiVersion: expected "client.authentication.k8s.io/v1" or ` +
        `"client.authentication.k8s.io/v1beta1" (got "client.authentication.k8s.io/v1alpha1")`,
    );
  });

  it("only the selected user is checked semantically", async () => {
    const config = simpleKubeconfig({ user: { token: "t" } });
    (config.users as unknown[]).push({ name: "other", user: { exec: { apiVersion: "v0", command: "p" } } });
    const file = writeKubeconfig(tempDir(), "config", config);
    const conn = await (await loadKubeconfig({ path: file })).resolve();
    expect(conn.auth.kind).toBe("token");
  });

  it("v1 exec plugins must declare interactiveMode; v1beta1 defaults it", async () => {
    const v1 = writeKubeconfig(
      tempDir(),
      "v1",
      simpleKubeconfig({ user: { exec: { apiVersion: "client.authentication.k8s.io/v1", command: "p" } } }),
    );
    const err = await kubeconfigError((await loadKubeconfig({ path: v1 })).resolve());
    expect(err.fieldPath).toBe("users[0].user.exec.interactiveMode");
    const bad = writeKubeconfig(
      tempDir(),
      "bad-mode",
      simpleKubeconfig({
        user: {
          exec: { apiVersion: "client.authentication.k8s.io/v1", command: "p", interactiveMode: "Sometimes" },
        },
      }),
    );
    expect((await kubeconfigError((await loadKubeconfig({ path: bad })).resolve())).message).toContain(
      "Sometimes",
    );
  });

  it("token together with basic auth", async () => {
    const { err } = await loadError(
      simpleKubeconfig({ user: { token: SECRET, username: "u", password: SECRET } }),
    );
    expect(err.fieldPath).toBe("users[0].user.username");
  });

  it("a client key without a certificate", async () => {
    const { err } = await loadError(
      simpleKubeconfig({ user: { "client-key-data": Buffer.from(SECRET).toString("base64") } }),
    );
    expect(err.fieldPath).toBe("users[0].user.client-certificate");
  });

  it("legacy auth-provider plugins are refused with a typed error", async () => {
    const { err } = await loadError(
      simpleKubeconfig({ user: { "auth-provider": { name: "gcp", config: { "access-token": SECRET } } } }),
    );
    expect(err.code).toBe("KUBECONFIG_UNSUPPORTED");
  });

  it("a cluster without a server", async () => {
    const { err } = await loadError(simpleKubeconfig({ cluster: { server: null } }));
    expect(err.fieldPath).toBe("clusters[0].cluster.server");
  });
});
