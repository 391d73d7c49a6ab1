import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KubeConfig, KubeconfigError, loadClusterConnection, loadKubeconfig } from "../src/index.js";
import { simpleKubeconfig, writeKubeconfig } from "./helpers/kubeconfig.js";
import { rejectsWith } from "./helpers/rejection.js";
import { useTempDir } from "./helpers/temp-dir.js";

const tempDir = useTempDir();

const noEnv = {};

const kubeconfigError = (p: Promise<unknown>) => rejectsWith(p, KubeconfigError);

describe("locating and merging kubeconfig files", () => {
  const fileA = () =>
    writeKubeconfig(tempDir(), "a/config", {
      clusters: [
        { name: "a", cluster: { server: "https://a.example:6443" } },
        { name: "shared", cluster: { server: "https://from-a.example" } },
      ],
      users: [{ name: "shared-user", user: { token: "token-from-a" } }],
      contexts: [{ name: "ctx-a", context: { cluster: "shared", user: "shared-user", namespace: "team-a" } }],
      "current-context": "ctx-a",
    });
  const fileB = (currentContext = "ctx-b") =>
    writeKubeconfig(tempDir(), "b/config", {
      clusters: [
        { name: "shared", cluster: { server: "https://from-b.example", "insecure-skip-tls-verify": true } },
        { name: "b", cluster: { server: "https://b.example" } },
      ],
      users: [{ name: "shared-user", user: { tokenFile: "token" } }],
      contexts: [{ name: "ctx-b", context: { cluster: "b", user: "shared-user" } }],
      "current-context": currentContext,
    });

  it("merges KUBECONFIG files: first definition of a name wins whole, missing files are skipped", async () => {
    const a = fileA();
    const b = fileB();
    const missing = path.join(tempDir(), "missing/config");
    const config = await loadKubeconfig({ env: { KUBECONFIG: [a, missing, b, a].join(":") } });
    expect(config.files).toEqual([a, b]);
    expect(config.currentContext).toBe("ctx-a");
    expect([...config.contexts.keys()].sort()).toEqual(["ctx-a", "ctx-b"]);
    expect(config.clusters.get("shared")?.server).toBe("https://from-a.example");
    // The whole first entry is kept: B's insecure flag is not mixed into A's "shared".
    expect(config.clusters.get("shared")?.insecureSkipTlsVerify).toBe(false);
    expect(config.users.get("shared-user")?.token).toBe("token-from-a");
    expect(config.users.get("shared-user")?.tokenFile).toBeUndefined();
    const conn = await config.resolve();
    expect(conn.server).toBe("https://from-a.example");
    expect(conn.namespace).toBe("team-a");
    expect(await conn.auth.credentials()).toEqual({ authorization: "Bearer token-from-a" });
  });

  it("takes current-context from the first file that sets one", async () => {
    const a = writeKubeconfig(tempDir(), "a/config", {
      clusters: [{ name: "x", cluster: { server: "https://x" } }],
    });
    const b = fileB("ctx-b");
    const config = await loadKubeconfig({ env: { KUBECONFIG: `${a}:${b}` } });
    expect(config.currentContext).toBe("ctx-b");
  });

  it("resolves relative paths against the file that declared them", async () => {
    fileA();
    const b = fileB();
    writeFileSync(path.join(tempDir(), "b/token"), "token-in-b-dir\n");
    const config = await loadKubeconfig({ env: { KUBECONFIG: b } });
    expect(config.users.get("shared-user")?.tokenFile).toBe(path.join(tempDir(), "b/token"));
    const conn = await config.resolve();
    expect(await conn.auth.credentials()).toEqual({ authorization: "Bearer token-in-b-dir" });
  });

  it("uses ~/.kube/config when KUBECONFIG is unset", async () => {
    writeKubeconfig(tempDir(), "home/.kube/config", simpleKubeconfig({ server: "https://home.example" }));
    const config = await loadKubeconfig({ env: noEnv, homeDir: path.join(tempDir(), "home") });
    expect(config.files).toEqual([path.join(tempDir(), "home/.kube/config")]);
    expect((await config.resolve()).server).toBe("https://home.example");
  });

  it("an explicit path wins over KUBECONFIG and must exist", async () => {
    const a = fileA();
    const explicit = writeKubeconfig(
      tempDir(),
      "explicit",
      simpleKubeconfig({ server: "https://explicit.example" }),
    );
    const config = await loadKubeconfig({ path: explicit, env: { KUBECONFIG: a } });
    expect(config.files).toEqual([explicit]);
    const err = await kubeconfigError(
      loadKubeconfig({ path: path.join(tempDir(), "nope"), env: { KUBECONFIG: a } }),
    );
    expect(err.code).toBe("KUBECONFIG_NOT_FOUND");
    expect(err.file).toBe(path.join(tempDir(), "nope"));
  });

  it("reports KUBECONFIG_NOT_FOUND when no file exists", async () => {
    const err = await kubeconfigError(loadKubeconfig({ env: { KUBECONFIG: path.join(tempDir(), "x") } }));
    expect(err.code).toBe("KUBECONFIG_NOT_FOUND");
    expect(err.message).toContain(path.join(tempDir(), "x"));
  });

  it("treats an empty file as an empty config", async () => {
    const empty = writeKubeconfig(tempDir(), "empty", "");
    const config = await loadKubeconfig({ path: empty });
    expect(config.contexts.size).toBe(0);
    expect((await kubeconfigError(config.resolve())).code).toBe("KUBECONFIG_NO_CONTEXT");
  });
});

describe("selecting context, cluster, user and namespace", () => {
  const multi = () =>
    KubeConfig.fromYaml(
      JSON.stringify({
        clusters: [
          { name: "prod", cluster: { server: "https://prod.example:6443/k8s/clusters/c-1/" } },
          { name: "dev", cluster: { server: "dev.example:6443" } },
        ],
        users: [
          { name: "admin", user: { token: "admin-token" } },
          { name: "viewer", user: { username: "view", password: "pw" } },
        ],
        contexts: [
          { name: "prod", context: { cluster: "prod", user: "admin", namespace: "prod-ns" } },
          { name: "dev", context: { cluster: "dev", user: "viewer" } },
          { name: "broken", context: { cluster: "gone", user: "admin" } },
        ],
        "current-context": "prod",
      }),
      path.join(tempDir(), "config"),
    );

  it("uses current-context with its namespace, keeping a server path prefix", async () => {
    const conn = await multi().resolve();
    expect(conn.server).toBe("https://prod.example:6443/k8s/clusters/c-1");
    expect(conn.namespace).toBe("prod-ns");
    expect(conn.source).toMatchObject({
      kind: "kubeconfig",
      context: "prod",
      cluster: "prod",
      user: "admin",
    });
  });

  it("defaults the namespace to 'default' and the scheme to https", async () => {
    const conn = await multi().resolve({ context: "dev" });
    expect(conn.namespace).toBe("default");
    expect(conn.server).toBe("https://dev.example:6443");
    expect(await conn.auth.credentials()).toEqual({
      authorization: `Basic ${Buffer.from("view:pw").toString("base64")}`,
    });
  });

  it("applies cluster, user and namespace overrides", async () => {
    const conn = await multi().resolve({ cluster: "dev", user: "viewer", namespace: "other" });
    expect(conn.server).toBe("https://dev.example:6443");
    expect(conn.namespace).toBe("other");
    expect(conn.auth.kind).toBe("basic");
  });

  it("names missing references", async () => {
    const config = multi();
    const unknownContext = await kubeconfigError(config.resolve({ context: "nope" }));
    expect(unknownContext.code).toBe("KUBECONFIG_REFERENCE_NOT_FOUND");
    expect(unknownContext.message).toContain('context "nope"');
    const unknownCluster = await kubeconfigError(config.resolve({ context: "broken" }));
    expect(unknownCluster.fieldPath).toBe("contexts[2].context.cluster");
    expect(unknownCluster.message).toContain('cluster "gone"');
    const unknownUser = await kubeconfigError(config.resolve({ user: "ghost" }));
    expect(unknownUser.code).toBe("KUBECONFIG_REFERENCE_NOT_FOUND");
    const badNamespace = await kubeconfigError(config.resolve({ namespace: "Not_Valid" }));
    expect(badNamespace.code).toBe("KUBECONFIG_INVALID");
  });
});

describe("cluster TLS settings", () => {
  it("reads certificate-authority relative to the kubeconfig file", async () => {
    writeFileSync(path.join(tempDir(), "ca.pem"), "CA-PEM");
    const file = writeKubeconfig(
      tempDir(),
      "nested/config",
      simpleKubeconfig({ cluster: { "certificate-authority": "../ca.pem" } }),
    );
    const config = await loadKubeconfig({ path: file });
    expect(config.clusters.get("c")?.certificateAuthority).toBe(path.join(tempDir(), "ca.pem"));
    const conn = await config.resolve();
    expect(conn.tls.ca?.toString()).toBe("CA-PEM");
    expect(conn.tls.rejectUnauthorized).toBe(true);
  });

  it("decodes certificate-authority-data and passes tls-server-name and proxy-url", async () => {
    const file = writeKubeconfig(
      tempDir(),
      "config",
      simpleKubeconfig({
        cluster: {
          "certificate-authority-data": Buffer.from("CA-DATA").toString("base64"),
          "tls-server-name": "kube.internal",
          "proxy-url": "http://proxy.example:3128",
        },
      }),
    );
    const conn = await (await loadKubeconfig({ path: file })).resolve();
    expect(conn.tls.ca?.toString()).toBe("CA-DATA");
    expect(conn.tls.servername).toBe("kube.internal");
    expect(conn.proxyUrl).toBe("http://proxy.example:3128");
  });

  it("honours insecure-skip-tls-verify and rejects it together with a CA", async () => {
    const insecure = writeKubeconfig(
      tempDir(),
      "insecure",
      simpleKubeconfig({ cluster: { "insecure-skip-tls-verify": true } }),
    );
    expect((await (await loadKubeconfig({ path: insecure })).resolve()).tls.rejectUnauthorized).toBe(false);
    const both = writeKubeconfig(
      tempDir(),
      "both",
      simpleKubeconfig({
        cluster: {
          "insecure-skip-tls-verify": true,
          "certificate-authority-data": Buffer.from("x").toString("base64"),
        },
      }),
    );
    const err = await kubeconfigError((await loadKubeconfig({ path: both })).resolve());
    expect(err.fieldPath).toBe("clusters[0].cluster.insecure-skip-tls-verify");
  });

  it("names the field and path of an unreadable CA file", async () => {
    const file = writeKubeconfig(
      tempDir(),
      "config",
      simpleKubeconfig({ cluster: { "certificate-authority": "missing-ca.pem" } }),
    );
    const err = await kubeconfigError((await loadKubeconfig({ path: file })).resolve());
    expect(err.code).toBe("KUBECONFIG_UNREADABLE");
    expect(err.message).toBe(
      `${file}: clusters[0].cluster.certificate-authority: cannot read ${path.join(tempDir(), "missing-ca.pem")} (ENOENT)`,
    );
  });
});

describe("user credentials", () => {
  async function connect(user: Record<string, unknown>) {
    const file = writeKubeconfig(tempDir(), "config", simpleKubeconfig({ user }));
    return (await loadKubeconfig({ path: file })).resolve({}, { env: {} });
  }

  it("static token", async () => {
    const conn = await connect({ token: "s3cret-token" });
    expect(conn.auth.kind).toBe("token");
    expect(await conn.auth.credentials()).toEqual({ authorization: "Bearer s3cret-token" });
  });

  it("tokenFile", async () => {
    writeFileSync(path.join(tempDir(), "tok"), "  file-token \n");
    const conn = await connect({ tokenFile: "tok" });
    expect(conn.auth.kind).toBe("token-file");
    expect(await conn.auth.credentials()).toEqual({ authorization: "Bearer file-token" });
  });

  it("basic auth", async () => {
    const conn = await connect({ username: "alice", password: "pa:ss" });
    expect(await conn.auth.credentials()).toEqual({
      authorization: `Basic ${Buffer.from("alice:pa:ss").toString("base64")}`,
    });
  });

  it("client certificate from data and from files", async () => {
    const fromData = await connect({
      "client-certificate-data": Buffer.from("CERT").toString("base64"),
      "client-key-data": Buffer.from("KEY").toString("base64"),
    });
    expect(fromData.tls.cert?.toString()).toBe("CERT");
    expect(fromData.tls.key?.toString()).toBe("KEY");
    expect(fromData.auth.kind).toBe("none");
    writeFileSync(path.join(tempDir(), "c.crt"), "CERT-FILE");
    writeFileSync(path.join(tempDir(), "c.key"), "KEY-FILE");
    const fromFiles = await connect({ "client-certificate": "c.crt", "client-key": "c.key" });
    expect(fromFiles.tls.cert?.toString()).toBe("CERT-FILE");
    expect(fromFiles.tls.key?.toString()).toBe("KEY-FILE");
  });

  it("exec plugin (configuration only; running it is tested separately)", async () => {
    const conn = await connect({
      exec: {
        apiVersion: "client.authentication.k8s.io/v1beta1",
        command: "some-plugin",
        args: null,
        env: null,
      },
    });
    expect(conn.auth.kind).toBe("exec");
  });

  it("no credentials", async () => {
    const conn = await connect({});
    expect(conn.auth.kind).toBe("none");
    expect(await conn.auth.credentials()).toEqual({});
  });

  it("impersonation settings", async () => {
    const conn = await connect({
      token: "t",
      as: "bob",
      "as-groups": ["g1", "g2"],
      "as-user-extra": { scopes: ["a"] },
    });
    expect(conn.impersonation).toEqual({ user: "bob", groups: ["g1", "g2"], extra: { scopes: ["a"] } });
  });
});

describe("loadClusterConnection", () => {
  it("falls back to in-cluster only when no kubeconfig file exists", async () => {
    const sa = path.join(tempDir(), "sa");
    writeKubeconfig(tempDir(), "sa/token", "sa-token\n");
    writeKubeconfig(tempDir(), "sa/namespace", "kube-system");
    const env = { KUBERNETES_SERVICE_HOST: "10.0.0.1", KUBERNETES_SERVICE_PORT: "443" };
    const conn = await loadClusterConnection({
      env,
      homeDir: tempDir(),
      inCluster: { serviceAccountDir: sa },
    });
    expect(conn.source).toEqual({ kind: "in-cluster", serviceAccountDir: sa });
    expect(conn.namespace).toBe("kube-system");
    writeKubeconfig(tempDir(), ".kube/config", simpleKubeconfig({ server: "https://from-file.example" }));
    const fromFile = await loadClusterConnection({
      env,
      homeDir: tempDir(),
      inCluster: { serviceAccountDir: sa },
    });
    expect(fromFile.server).toBe("https://from-file.example");
  });

  it("does not fall back when disabled or outside a cluster", async () => {
    const err = await kubeconfigError(loadClusterConnection({ env: {}, homeDir: tempDir() }));
    expect(err.code).toBe("KUBECONFIG_NOT_FOUND");
    const env = { KUBERNETES_SERVICE_HOST: "10.0.0.1", KUBERNETES_SERVICE_PORT: "443" };
    const disabled = await kubeconfigError(
      loadClusterConnection({ env, homeDir: tempDir(), inCluster: false }),
    );
    expect(disabled.code).toBe("KUBECONFIG_NOT_FOUND");
  });
});
