/**
 * The webhook server's certificates: a self-signed server is verified by its own caBundle; a server
 * with certificates from files serves a rotated pair to new connections once the files change,
 * keeps the previous pair while the files hold a pair that does not match, and answers /healthz.
 */
import { mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { silentLogger, WebhookServer } from "@kubesdk/controller";
import { afterEach, describe, expect, it } from "vitest";
import { createCertificateAuthority } from "../../packages/server/src/tls.js";

/** GET over a fresh TLS connection verified with `ca`; the status, body and the certificate served. */
function get(url: string, ca: string): Promise<{ status: number; body: string; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, agent: false }, (res) => {
      const fingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
      let body = "";
      res.on("data", (c) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, fingerprint }));
    });
    req.on("error", reject);
    req.end();
  });
}

const fingerprintOf = async (certPem: string) =>
  new (await import("node:crypto")).X509Certificate(certPem).fingerprint256;

let server: WebhookServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe("webhook server certificates", () => {
  it("serves a self-signed certificate that its caBundle verifies, and /healthz", async () => {
    server = new WebhookServer({ port: 0, tls: { selfSigned: {} }, logger: silentLogger });
    await server.start();
    const ca = Buffer.from(server.caBundle as string, "base64").toString();
    const r = await get(`${server.url}/healthz`, ca);
    expect(r).toMatchObject({ status: 200, body: "ok\n" });
    // A client trusting another CA refuses the connection.
    const other = createCertificateAuthority("someone-else");
    await expect(get(`${server.url}/healthz`, other.certPem)).rejects.toThrow();
  });

  it("serves the rotated certificate to new connections after the files change", async () => {
    const ca = createCertificateAuthority("webhook-rotation-ca");
    const issue = () => ca.issue({ commonName: "webhook", ipAddresses: ["127.0.0.1"], usage: "server" });
    const dir = mkdtempSync(join(tmpdir(), "webhook-certs-"));
    const files = {
      certFile: join(dir, "tls.crt"),
      keyFile: join(dir, "tls.key"),
      caFile: join(dir, "ca.crt"),
    };
    const first = issue();
    writeFileSync(files.certFile, first.certPem);
    writeFileSync(files.keyFile, first.keyPem);
    writeFileSync(files.caFile, ca.certPem);
    server = new WebhookServer({ port: 0, tls: files, logger: silentLogger });
    await server.start();
    expect(Buffer.from(server.caBundle as string, "base64").toString()).toBe(ca.certPem);
    expect((await get(`${server.url}/healthz`, ca.certPem)).fingerprint).toBe(
      await fingerprintOf(first.certPem),
    );

    const second = issue();
    const reloaded = new Promise<string>((resolve) =>
      server?.onCertificateReload((pair) => resolve(pair.certPem)),
    );
    // The key lands first: the pair does not match until the certificate follows, and is skipped.
    writeFileSync(files.keyFile, second.keyPem);
    // The certificate arrives as a Secret volume writes it: a new file renamed into place.
    writeFileSync(join(dir, "tls.crt.tmp"), second.certPem);
    renameSync(join(dir, "tls.crt.tmp"), files.certFile);
    expect(await reloaded).toBe(second.certPem);
    expect((await get(`${server.url}/healthz`, ca.certPem)).fingerprint).toBe(
      await fingerprintOf(second.certPem),
    );
  });

  it("refuses to start on a key that does not belong to the certificate", async () => {
    const ca = createCertificateAuthority("webhook-mismatch-ca");
    const a = ca.issue({ commonName: "a", ipAddresses: ["127.0.0.1"], usage: "server" });
    const b = ca.issue({ commonName: "b", ipAddresses: ["127.0.0.1"], usage: "server" });
    const dir = mkdtempSync(join(tmpdir(), "webhook-certs-"));
    writeFileSync(join(dir, "tls.crt"), a.certPem);
    writeFileSync(join(dir, "tls.key"), b.keyPem);
    const s = new WebhookServer({
      port: 0,
      tls: { certFile: join(dir, "tls.crt"), keyFile: join(dir, "tls.key") },
      logger: silentLogger,
    });
    await expect(s.start()).rejects.toThrow(/key values mismatch|private key/i);
    await s.stop();
  });
});
