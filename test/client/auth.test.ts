import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kube } from "@kubesdk/client";
import { isForbidden, isUnauthorized } from "@kubesdk/transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, targetKind } from "../support/target.js";
import { currentContext, editedKubeconfig } from "./support.js";

let t: TestTarget;

beforeAll(async () => {
  t = await startTarget();
});
afterAll(async () => {
  await t.close();
});

/** The kubeconfig's user entry (the one the current context names), to edit credentials in place. */
// biome-ignore lint/suspicious/noExplicitAny: kubeconfig documents are edited as plain YAML.
function currentUser(doc: any): Record<string, unknown> {
  const name = currentContext(doc).user;
  return doc.users.find((u: { name: string }) => u.name === name).user;
}

async function canListNamespaces(path: string): Promise<unknown> {
  const kube = await Kube.fromKubeconfig({ kubeconfig: { path } });
  try {
    return (await kube.resource("v1", "Namespace").list({ limit: 1 })).kind;
  } catch (err) {
    return err;
  } finally {
    await kube.close();
  }
}

describe("authentication over HTTPS", () => {
  it("sends the kubeconfig's bearer token and verifies the server with its CA", async () => {
    expect(await canListNamespaces(t.kubeconfigPath)).toBe("NamespaceList");
  });

  it("reads the token from a tokenFile", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kubesdk-token-"));
    writeFileSync(join(dir, "token"), `${t.token}\n`);
    const path = editedKubeconfig(t, (doc) => {
      const user = currentUser(doc);
      delete user.token;
      user.tokenFile = join(dir, "token");
    });
    expect(await canListNamespaces(path)).toBe("NamespaceList");
  });

  it("answers a wrong token with a typed 401", async () => {
    const path = editedKubeconfig(t, (doc) => {
      currentUser(doc).token = "not-a-valid-token";
    });
    const error = await canListNamespaces(path);
    expect(isUnauthorized(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 401, reason: "Unauthorized" });
  });

  // Reference only: the certificate must be signed by the server's client CA, which only the
  // in-process reference server hands out (the real harness keeps its CA key to itself).
  it.skipIf(targetKind === "real")(
    "authenticates with a client certificate from the kubeconfig",
    async () => {
      const reference = t.reference;
      if (reference === undefined) throw new Error("needs the reference server");
      const pair = reference.issueClientCertificate("alice", ["system:masters"]);
      const withCertificate = editedKubeconfig(t, (doc) => {
        const user = currentUser(doc);
        delete user.token;
        user["client-certificate-data"] = Buffer.from(pair.certPem).toString("base64");
        user["client-key-data"] = Buffer.from(pair.keyPem).toString("base64");
      });
      expect(await canListNamespaces(withCertificate)).toBe("NamespaceList");

      // The same kubeconfig without the certificate is anonymous and refused, so the certificate did it.
      const anonymous = editedKubeconfig(t, (doc) => {
        delete currentUser(doc).token;
      });
      const refused = await canListNamespaces(anonymous);
      expect(isForbidden(refused) || isUnauthorized(refused)).toBe(true);
    },
  );
});
