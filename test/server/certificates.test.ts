// The reference server's certificates as a TLS peer sees them: a CA that signed the serving and
// client certificates, names and usages where verifiers look for them, client identity in the subject.
import { createPrivateKey, X509Certificate } from "node:crypto";
import { connect, type PeerCertificate } from "node:tls";
import { type RunningServer, startServer } from "@kubesdk/server";
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
