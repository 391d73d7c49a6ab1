/**
 * Certificates for the reference server: a CA made at start, a serving
 * certificate for loopback names, and client certificates (CN = user,
 * O = groups) for tests of client-certificate auth.
 *
 * Keys are ECDSA P-256 from node:crypto and the X.509 v3 certificates are
 * DER-encoded here and signed with node:crypto (ecdsa-with-SHA256), so a CA
 * plus a serving certificate cost about a millisecond instead of the hundreds
 * of milliseconds RSA key generation took. The encoding keeps to what strict
 * verifiers ask for (Go's crypto/x509, OpenSSL with X509_STRICT): minimal
 * integers, positive serials, a critical basicConstraints and keyUsage on the
 * CA, subject and authority key identifiers, and subjectAltName for names.
 */
import {
  createHash,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
} from "node:crypto";

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

// --- DER encoding (only the shapes a certificate needs) ---

function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  let header: Buffer;
  if (n < 0x80) header = Buffer.from([tag, n]);
  else {
    const len: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) len.unshift(v & 0xff);
    header = Buffer.from([tag, 0x80 | len.length, ...len]);
  }
  return Buffer.concat([header, content]);
}

const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const octets = (b: Buffer) => tlv(0x04, b);
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
const explicit = (n: number, inner: Buffer) => tlv(0xa0 | n, inner);
const bitString = (b: Buffer, unusedBits = 0) => tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), b]));

/** A non-negative INTEGER, minimally encoded (a 0x00 pad only when the top bit is set). */
function uint(bytes: Buffer): Buffer {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  const trimmed = bytes.subarray(i);
  const padded = (trimmed[0] as number) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed;
  return tlv(0x02, padded);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split(".").map(Number);
  const bytes: number[] = [40 * (parts[0] as number) + (parts[1] as number)];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime through 2049, GeneralizedTime after (RFC 5280 4.1.2.5). */
function time(date: Date): Buffer {
  const iso = date.toISOString(); // 2026-01-02T03:04:05.678Z
  // Sliced rather than replaced by a regular expression: each one compiles on a first start.
  const digits =
    iso.slice(0, 4) +
    iso.slice(5, 7) +
    iso.slice(8, 10) +
    iso.slice(11, 13) +
    iso.slice(14, 16) +
    iso.slice(17, 19);
  const year = date.getUTCFullYear();
  return year < 2050
    ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, "ascii"))
    : tlv(0x18, Buffer.from(`${digits}Z`, "ascii"));
}

/** A BIT STRING of named bits (bit 0 = the most significant bit of the first byte), DER-trimmed. */
function namedBits(bits: readonly number[]): Buffer {
  const top = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(top / 8) + 1);
  for (const bit of bits) bytes[bit >> 3] = (bytes[bit >> 3] as number) | (0x80 >> (bit & 7));
  return bitString(bytes, 7 - (top & 7));
}

// --- X.509 pieces ---

const OID = {
  commonName: "2.5.4.3",
  organization: "2.5.4.10",
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  subjectKeyId: "2.5.29.14",
  keyUsage: "2.5.29.15",
  subjectAltName: "2.5.29.17",
  basicConstraints: "2.5.29.19",
  authorityKeyId: "2.5.29.35",
  extKeyUsage: "2.5.29.37",
  serverAuth: "1.3.6.1.5.5.7.3.1",
  clientAuth: "1.3.6.1.5.5.7.3.2",
} as const;

const KEY_USAGE = { digitalSignature: 0, keyCertSign: 5, cRLSign: 6 } as const;

function name(commonName: string, organizations: readonly string[] = []): Buffer {
  const rdn = (type: string, value: string) => set(seq(oid(type), tlv(0x0c, Buffer.from(value, "utf8"))));
  return seq(...organizations.map((o) => rdn(OID.organization, o)), rdn(OID.commonName, commonName));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));
}

const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** Dotted decimal, each part 0–255 without leading zeros (what node:net's isIPv4 accepts). */
function ipv4Parts(ip: string): number[] | undefined {
  const parts = ip.split(".");
  const numbers = parts.map(Number);
  const valid = parts.length === 4 && numbers.every((n, i) => n <= 255 && String(n) === parts[i]);
  return valid ? numbers : undefined;
}

/**
 * Parsed by hand rather than checked with node:net's isIPv4 and isIPv6: their regular expressions
 * are compiled on first use, a few ms of every process's first server start (the SANs always hold
 * "127.0.0.1" and "::1").
 */
function ipBytes(ip: string): Buffer {
  const v4 = ipv4Parts(ip);
  if (v4) return Buffer.from(v4);
  const halves = ip.split("::");
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const left = groups(halves[0] ?? "");
  const right = halves.length === 2 ? groups(halves[1] ?? "") : [];
  const missing = 8 - left.length - right.length;
  // "::" stands for one or more zero groups; without it there are eight.
  const counted = halves.length === 1 ? missing === 0 : halves.length === 2 && missing >= 1;
  const all = [...left, ...Array<string>(Math.max(0, missing)).fill("0"), ...right];
  if (!counted || !all.every((g) => HEX_GROUP.test(g)))
    throw new Error(`unsupported IP address for a certificate: ${ip}`);
  const out = Buffer.alloc(16);
  for (const [i, g] of all.entries()) out.writeUInt16BE(Number.parseInt(g, 16), i * 2);
  return out;
}

function subjectAltName(dnsNames: readonly string[], ips: readonly string[]): Buffer {
  return seq(
    ...dnsNames.map((d) => tlv(0x82, Buffer.from(d, "ascii"))),
    ...ips.map((ip) => tlv(0x87, ipBytes(ip))),
  );
}

/** Key identifier: SHA-1 of the subjectPublicKey bits (RFC 5280 4.2.1.2, method 1). */
function keyId(spki: Buffer): Buffer {
  // For P-256 the SPKI is SEQUENCE { AlgorithmIdentifier, BIT STRING (0x00 + 65-byte point) }.
  const point = spki.subarray(spki.length - 65);
  return createHash("sha1").update(point).digest();
}

function serial(): Buffer {
  const b = randomBytes(16);
  b[0] = (b[0] as number) & 0x7f || 0x01; // positive, and no leading zero byte
  return b;
}

interface CertificateSpec {
  readonly subject: Buffer;
  readonly issuer: Buffer;
  readonly spki: Buffer;
  readonly days: number;
  readonly extensions: readonly Buffer[];
  readonly signer: KeyObject;
}

function certificate(spec: CertificateSpec): string {
  const algorithm = seq(oid(OID.ecdsaWithSha256));
  const now = Date.now();
  const tbs = seq(
    explicit(0, uint(Buffer.from([2]))),
    uint(serial()),
    algorithm,
    spec.issuer,
    seq(time(new Date(now - 60_000)), time(new Date(now + spec.days * 86_400_000))),
    spec.subject,
    spec.spki,
    explicit(3, seq(...spec.extensions)),
  );
  const signature = sign("sha256", tbs, spec.signer); // DER ECDSA-Sig-Value
  const der = seq(tbs, algorithm, bitString(signature));
  const base64 = der.toString("base64");
  const lines: string[] = [];
  for (let i = 0; i < base64.length; i += 64) lines.push(base64.slice(i, i + 64));
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

interface GeneratedKey {
  readonly privateKey: KeyObject;
  readonly spki: Buffer;
  readonly keyPem: string;
}

function newKey(): GeneratedKey {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const spki = createPublicKey(privateKey).export({ type: "spki", format: "der" });
  const keyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  return { privateKey, spki, keyPem };
}

function leafExtensions(opts: IssueOptions, spki: Buffer, caKeyId: Buffer): Buffer[] {
  const usage = opts.usage === "server" ? OID.serverAuth : OID.clientAuth;
  const extensions = [
    extension(OID.basicConstraints, true, seq()),
    extension(OID.keyUsage, true, namedBits([KEY_USAGE.digitalSignature])),
    extension(OID.extKeyUsage, false, seq(oid(usage))),
    extension(OID.subjectKeyId, false, octets(keyId(spki))),
    extension(OID.authorityKeyId, false, seq(tlv(0x80, caKeyId))),
  ];
  const dnsNames = opts.dnsNames ?? [];
  const ips = opts.ipAddresses ?? [];
  if (dnsNames.length + ips.length > 0) {
    extensions.push(extension(OID.subjectAltName, false, subjectAltName(dnsNames, ips)));
  }
  return extensions;
}

export function createCertificateAuthority(commonName = "kubesdk-reference-ca"): CertificateAuthority {
  return authority(commonName, newKey(), newKey);
}

/** The two key pairs of the reference server's own TLS, made by the first server of the process. */
let serverKeys: { readonly ca: GeneratedKey; readonly serving: GeneratedKey } | undefined;

/**
 * The reference server's CA, with the process's key pairs: making and encoding two key pairs was a
 * tenth of every later start's CPU (docs/performance.md). Each call still signs a CA certificate of
 * its own, under a subject no other server has, as kube-apiserver's self-signed "<host>-ca@<time>"
 * does: verifiers find an issuer by its subject, so one server's CA bundle does not verify another
 * server's serving or client certificates although the key is the same. Only `issue` with
 * `usage: "server"` reuses the serving key; client certificates get fresh keys.
 */
export function createServerAuthority(): CertificateAuthority {
  serverKeys ??= { ca: newKey(), serving: newKey() };
  const { ca, serving } = serverKeys;
  const unique = `kubesdk-reference-ca@${Math.floor(Date.now() / 1000)}-${randomBytes(6).toString("hex")}`;
  return authority(unique, ca, (usage) => (usage === "server" ? serving : newKey()));
}

function authority(
  commonName: string,
  ca: GeneratedKey,
  leafKey: (usage: IssueOptions["usage"]) => GeneratedKey,
): CertificateAuthority {
  const caName = name(commonName);
  const caKeyId = keyId(ca.spki);
  const caCertPem = certificate({
    subject: caName,
    issuer: caName,
    spki: ca.spki,
    days: 3650,
    signer: ca.privateKey,
    extensions: [
      extension(OID.basicConstraints, true, seq(bool(true))),
      extension(
        OID.keyUsage,
        true,
        namedBits([KEY_USAGE.digitalSignature, KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign]),
      ),
      extension(OID.subjectKeyId, false, octets(caKeyId)),
    ],
  });

  return {
    certPem: caCertPem,
    keyPem: ca.keyPem,
    issue(opts: IssueOptions): KeyPair {
      const leaf = leafKey(opts.usage);
      const certPem = certificate({
        subject: name(opts.commonName, opts.organizations),
        issuer: caName,
        spki: leaf.spki,
        days: opts.days ?? 365,
        signer: ca.privateKey,
        extensions: leafExtensions(opts, leaf.spki, caKeyId),
      });
      return { certPem, keyPem: leaf.keyPem };
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
