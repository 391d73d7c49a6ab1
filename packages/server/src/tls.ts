/**
 * Certificates for the reference server: a CA made at start, a serving
 * certificate for loopback names, and client certificates (CN = user,
 * O = groups) for tests of client-certificate auth. node-forge builds the
 * X.509 structures; keys come from Node's own (fast, native) generator.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";

export interface KeyPair {
  readonly certPem: string;
  readonly keyPem: string;
}

export interface CertificateAuthority extends KeyPair {
  /** Issues a certificate signed by this CA. */
  issue(opts: IssueOptions): KeyPair;
}

export interface IssueOptions {
  readonly commonName: string;
  readonly organizations?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly usage: "server" | "client";
  readonly days?: number;
}

function newKeyPem(): { publicPem: string; privatePem: string } {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    privatePem: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
  };
}

function serial(): string {
  // Positive: clear the top bit.
  const b = randomBytes(16);
  b[0] = (b[0] as number) & 0x7f;
  return b.toString("hex");
}

function validity(cert: forge.pki.Certificate, days: number): void {
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + days * 86_400_000);
}

export function createCertificateAuthority(commonName = "kubesdk-reference-ca"): CertificateAuthority {
  const keys = newKeyPem();
  const caKey = forge.pki.privateKeyFromPem(keys.privatePem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(keys.publicPem);
  cert.serialNumber = serial();
  validity(cert, 3650);
  const subject = [{ name: "commonName", value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  const caCertPem = forge.pki.certificateToPem(cert);

  return {
    certPem: caCertPem,
    keyPem: keys.privatePem,
    issue(opts: IssueOptions): KeyPair {
      const leafKeys = newKeyPem();
      const leaf = forge.pki.createCertificate();
      leaf.publicKey = forge.pki.publicKeyFromPem(leafKeys.publicPem);
      leaf.serialNumber = serial();
      validity(leaf, opts.days ?? 365);
      const attrs: forge.pki.CertificateField[] = [{ name: "commonName", value: opts.commonName }];
      for (const o of opts.organizations ?? []) attrs.push({ name: "organizationName", value: o });
      leaf.setSubject(attrs);
      leaf.setIssuer(cert.subject.attributes);
      const altNames = [
        ...(opts.dnsNames ?? []).map((value) => ({ type: 2, value })),
        ...(opts.ipAddresses ?? []).map((ip) => ({ type: 7, ip })),
      ];
      const extensions: object[] = [
        { name: "basicConstraints", cA: false },
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
        { name: "extKeyUsage", serverAuth: opts.usage === "server", clientAuth: opts.usage === "client" },
      ];
      if (altNames.length > 0) extensions.push({ name: "subjectAltName", altNames });
      leaf.setExtensions(extensions);
      leaf.sign(caKey, forge.md.sha256.create());
      return { certPem: forge.pki.certificateToPem(leaf), keyPem: leafKeys.privatePem };
    },
  };
}

/** Identity carried by a client certificate: CN is the user, O entries the groups. */
export function identityFromCertificate(subject: Record<string, unknown> | undefined): {
  user: string;
  groups: string[];
} | null {
  if (!subject) return null;
  const cn = subject.CN;
  if (typeof cn !== "string" || cn === "") return null;
  const o = subject.O;
  const groups = Array.isArray(o) ? o.map(String) : typeof o === "string" ? [o] : [];
  return { user: cn, groups };
}
