/**
 * A development CA and a serving certificate it signs, made in memory with @peculiar/x509 (a
 * maintained X.509 library on WebCrypto; ECDSA P-256 keys take a millisecond, where RSA takes
 * hundreds). The CA's PEM is what a webhook configuration's `caBundle` carries. @peculiar/x509
 * needs the Reflect metadata API, so both are loaded only when a self-signed certificate is asked
 * for: servers with certificates from files never load them.
 */
import { isIP } from "node:net";

export interface GeneratedCertificates {
  readonly certPem: string;
  readonly keyPem: string;
  readonly caPem: string;
}

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const DAY_MS = 86_400_000;

function pem(label: string, der: ArrayBuffer): string {
  const body = Buffer.from(der)
    .toString("base64")
    .replace(/(.{64})/g, "$1\n")
    .trimEnd();
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

const serial = () =>
  Buffer.from(crypto.getRandomValues(new Uint8Array(16)))
    .toString("hex")
    .replace(/^[89a-f]/, "1");

/** A CA valid for `days` and a serving certificate for `hosts` (DNS names or IP addresses). */
export async function generateSelfSigned(
  hosts: readonly string[],
  days = 365,
): Promise<GeneratedCertificates> {
  await import("reflect-metadata");
  const x509 = await import("@peculiar/x509");
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + days * DAY_MS);
  const caKeys = await crypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"]);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: "CN=kubesdk-webhook-ca",
    notBefore,
    notAfter,
    signingAlgorithm: ALGORITHM,
    keys: caKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const keys = await crypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"]);
  const names = hosts.map((h) =>
    isIP(h) ? { type: "ip" as const, value: h } : { type: "dns" as const, value: h },
  );
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${hosts[0] ?? "webhook"}`,
    issuer: ca.subject,
    notBefore,
    notAfter,
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: caKeys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const keyDer = await crypto.subtle.exportKey("pkcs8", keys.privateKey);
  return { certPem: leaf.toString("pem"), keyPem: pem("PRIVATE KEY", keyDer), caPem: ca.toString("pem") };
}
