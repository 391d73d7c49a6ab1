// The reference server's certificates as a TLS peer sees them: a CA that signed the serving and
// client certificates, names and usages where verifiers look for them, client identity in the subject.
import { createPrivateKey, X509Certificate } from "node:crypto";
import { connect, type PeerCertificate } from "node:tls";
import { type RunningServer, startServer } from "@kubesdk/server";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ host: "127.0.0.1" });
});

afterAll(async () => {
  await server.stop();
});

function servingCertificate(): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: "127.0.0.1", port: server.port, ca: server.ca, servername: "localhost" },
      () => {
        resolve(socket.getPeerCertificate());
        socket.end();
      },
    );
    socket.once("error", reject);
  });
}

describe("reference server certificates", () => {
  it("has a P-256 CA that signs a serving certificate for the loopback names", async () => {
    const ca = new X509Certificate(server.ca as string);
    expect(ca.ca).toBe(true);
    expect(ca.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    expect(ca.verify(ca.publicKey)).toBe(true);

    const peer = await servingCertificate();
    const serving = new X509Certificate(peer.raw);
    expect(serving.ca).toBe(false);
    expect(serving.checkIssued(ca)).toBe(true);
    expect(serving.verify(ca.publicKey)).toBe(true);
    expect(serving.subjectAltName).toContain("DNS:localhost");
    expect(serving.subjectAltName).toContain("IP Address:127.0.0.1");
    expect(serving.subjectAltName).toContain("IP Address:0:0:0:0:0:0:0:1");
    expect(serving.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1"]);
    expect(serving.checkIP("::1")).toBe("::1");
  });

  it("issues client certificates carrying the user as CN and the groups as O", () => {
    const pair = server.issueClientCertificate("alice", ["system:masters", "devs"]);
    const cert = new X509Certificate(pair.certPem);
    expect(cert.verify(new X509Certificate(server.ca as string).publicKey)).toBe(true);
    expect(cert.subject.split("\n").sort()).toEqual(["CN=alice", "O=devs", "O=system:masters"]);
    expect(cert.keyUsage).toEqual(["1.3.6.1.5.5.7.3.2"]);
    expect(cert.checkPrivateKey(createPrivateKey(pair.keyPem))).toBe(true);
  });
});

/** Status of a namespace list from `target`, trusting `ca` and presenting `client` if given. */
async function listStatus(target: RunningServer, ca: string, client?: { certPem: string; keyPem: string }) {
  const agent = new Agent({
    connect: { ca, ...(client ? { cert: client.certPem, key: client.keyPem } : {}) },
  });
  try {
    const res = await request(`${target.url}/api/v1/namespaces`, { dispatcher: agent });
    await res.body.dump();
    return res.statusCode;
  } finally {
    await agent.close();
  }
}

// Servers of one process share their TLS key pairs (a start is cheaper), not their trust.
describe("two servers of one process", () => {
  let other: RunningServer;
  beforeAll(async () => {
    other = await startServer({ host: "127.0.0.1", cluster: false });
  });
  afterAll(async () => {
    await other.stop();
  });

  it("each has a CA of its own that verifies only its own server", async () => {
    const mine = new X509Certificate(server.ca as string);
    const theirs = new X509Certificate(other.ca as string);
    expect(theirs.subject).not.toBe(mine.subject);
    // The server sends its CA with its certificate, a self-signed one the client does not trust.
    const untrusted = /self-signed certificate in certificate chain|unable to get local issuer/;
    await expect(listStatus(other, server.ca as string)).rejects.toThrow(untrusted);
    await expect(listStatus(server, other.ca as string)).rejects.toThrow(untrusted);
  });

  it("accepts a client certificate from its own CA only", async () => {
    const alice = server.issueClientCertificate("alice", ["system:masters"]);
    expect(await listStatus(server, server.ca as string, alice)).toBe(200);
    // Not verified by the other server's CA: the request is anonymous there.
    expect(await listStatus(other, other.ca as string, alice)).toBe(403);
  });
});
