import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CredentialError, inClusterConnection, NotInClusterError, TokenFileAuth } from "../src/index.js";
import { useTempDir } from "./helpers/temp-dir.js";

const tempDir = useTempDir();

/** Replaces a file the way kubelet does: write elsewhere, rename over (new inode, same size allowed). */
function rotate(file: string, content: string): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}

/** A token file holding `content`, and a TokenFileAuth on it with a clock the test moves. */
function tokenAuth(content: string, recheckIntervalMs: number) {
  const file = path.join(tempDir(), "token");
  writeFileSync(file, content);
  const clock = { now: 0 };
  return { file, clock, auth: new TokenFileAuth(file, { recheckIntervalMs, now: () => clock.now }) };
}

describe("TokenFileAuth", () => {
  it("re-reads the token after the file is rotated", async () => {
    const { file, auth } = tokenAuth("token-one\n", 0);
    const first = await auth.credentials();
    expect(first).toEqual({ authorization: "Bearer token-one" });
    expect(await auth.credentials()).toBe(first); // unchanged file: same object
    rotate(file, "token-two\n"); // same length as before
    expect(await auth.credentials()).toEqual({ authorization: "Bearer token-two" });
    writeFileSync(file, "token-three-longer");
    expect(await auth.credentials()).toEqual({ authorization: "Bearer token-three-longer" });
  });

  it("does not look at the file again within the recheck interval", async () => {
    const { file, clock, auth } = tokenAuth("old-token", 1000);
    expect(await auth.credentials()).toEqual({ authorization: "Bearer old-token" });
    rotate(file, "new-token");
    clock.now = 999;
    expect(await auth.credentials()).toEqual({ authorization: "Bearer old-token" });
    clock.now = 1000;
    expect(await auth.credentials()).toEqual({ authorization: "Bearer new-token" });
  });

  it("after a 401 checks at once and asks for a retry only if the token changed", async () => {
    const { file, auth } = tokenAuth("rejected", 60_000);
    const rejected = await auth.credentials();
    expect(await auth.refreshAfterUnauthorized(rejected)).toBe(false);
    rotate(file, "accepted");
    expect(await auth.refreshAfterUnauthorized(rejected)).toBe(true);
    expect(await auth.credentials()).toEqual({ authorization: "Bearer accepted" });
  });

  it("reports missing and empty token files by path", async () => {
    const missing = new TokenFileAuth(path.join(tempDir(), "nope"));
    await expect(missing.credentials()).rejects.toMatchObject({ code: "TOKEN_FILE_UNREADABLE" });
    const emptyFile = path.join(tempDir(), "empty");
    writeFileSync(emptyFile, " \n");
    const empty = new TokenFileAuth(emptyFile);
    const err = await empty.credentials().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CredentialError);
    expect(err).toMatchObject({ code: "TOKEN_FILE_EMPTY", path: emptyFile });
  });
});

describe("in-cluster connection", () => {
  const env = { KUBERNETES_SERVICE_HOST: "10.96.0.1", KUBERNETES_SERVICE_PORT: "443" };

  function layout(files: Record<string, string>): string {
    const sa = path.join(tempDir(), "sa");
    mkdirSync(sa);
    for (const [name, content] of Object.entries(files)) writeFileSync(path.join(sa, name), content);
    return sa;
  }

  it("reads server, CA, namespace and the rotating token", async () => {
    const sa = layout({ token: "sa-token-1", "ca.crt": "CLUSTER-CA", namespace: "apps\n" });
    const conn = await inClusterConnection({ env, serviceAccountDir: sa, tokenRecheckIntervalMs: 0 });
    expect(conn.server).toBe("https://10.96.0.1:443");
    expect(conn.namespace).toBe("apps");
    expect(conn.tls.ca?.toString()).toBe("CLUSTER-CA");
    expect(conn.tls.rejectUnauthorized).toBe(true);
    expect(await conn.auth.credentials()).toEqual({ authorization: "Bearer sa-token-1" });
    rotate(path.join(sa, "token"), "sa-token-2");
    expect(await conn.auth.credentials()).toEqual({ authorization: "Bearer sa-token-2" });
  });

  it("brackets IPv6 hosts, defaults the namespace and honours an override", async () => {
    const sa = layout({ token: "t" });
    const v6 = { KUBERNETES_SERVICE_HOST: "fd00::1", KUBERNETES_SERVICE_PORT: "6443" };
    const conn = await inClusterConnection({ env: v6, serviceAccountDir: sa });
    expect(conn.server).toBe("https://[fd00::1]:6443");
    expect(conn.namespace).toBe("default");
    expect(conn.tls.ca).toBeUndefined();
    expect((await inClusterConnection({ env, serviceAccountDir: sa, namespace: "x" })).namespace).toBe("x");
  });

  it("fails with typed errors outside a pod or without a token", async () => {
    const sa = layout({});
    await expect(inClusterConnection({ env: {}, serviceAccountDir: sa })).rejects.toBeInstanceOf(
      NotInClusterError,
    );
    await expect(inClusterConnection({ env, serviceAccountDir: sa })).rejects.toMatchObject({
      code: "TOKEN_FILE_UNREADABLE",
    });
  });
});
