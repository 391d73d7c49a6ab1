/**
 * The PKCS#10 check kube-apiserver makes of `spec.request`: one PEM block of type CERTIFICATE
 * REQUEST whose signature verifies with the public key it carries. Node's crypto verifies; the DER
 * walk that finds the signed part, the key and the signature is a few lines here because Node
 * has no parser for certificate requests. Go's ASN.1 error texts are not reproduced (SV2 in
 * docs/divergences.md): a request that does not parse gets one message of our own.
 */
import { createPublicKey, verify } from "node:crypto";
import { pemBlocks } from "../../validation/pem-blocks.js";

interface Tlv {
  readonly tag: number;
  /** The whole element, header included. */
  readonly raw: Buffer;
  readonly body: Buffer;
}

function readTlv(buf: Buffer, at: number): Tlv {
  const tag = buf[at] as number;
  let len = buf[at + 1] as number;
  let head = 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error("bad length");
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (buf[at + 2 + i] as number);
    head += n;
  }
  if (at + head + len > buf.length) throw new Error("truncated");
  return { tag, raw: buf.subarray(at, at + head + len), body: buf.subarray(at + head, at + head + len) };
}

function children(tlv: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = 0; at < tlv.body.length; ) {
    const c = readTlv(tlv.body, at);
    out.push(c);
    at += c.raw.length;
  }
  return out;
}

/** Signature algorithm OIDs (DER body hex) and the digest Node verifies with. */
const ALGORITHMS: Readonly<Record<string, { digest: string | null; family: string }>> = {
  "2a864886f70d01010b": { digest: "sha256", family: "rsa" },
  "2a864886f70d01010c": { digest: "sha384", family: "rsa" },
  "2a864886f70d01010d": { digest: "sha512", family: "rsa" },
  "2a864886f70d010105": { digest: "sha1", family: "rsa" },
  "2a8648ce3d040302": { digest: "sha256", family: "ecdsa" },
  "2a8648ce3d040303": { digest: "sha384", family: "ecdsa" },
  "2a8648ce3d040304": { digest: "sha512", family: "ecdsa" },
  "2b6570": { digest: null, family: "ed25519" },
};

const FAILURE: Readonly<Record<string, string>> = {
  rsa: "crypto/rsa: verification error",
  ecdsa: "x509: ECDSA verification failure",
  ed25519: "x509: Ed25519 verification failure",
};

/** What is wrong with a base64-decoded `spec.request`, or undefined when it is a signed request. */
export function requestProblem(pem: Buffer): string | undefined {
  const block = pemBlocks(pem.toString("latin1"))[0];
  if (block?.type !== "CERTIFICATE REQUEST") return "PEM block type must be CERTIFICATE REQUEST";
  try {
    const [info, alg, sig] = children(readTlv(block.der, 0));
    if (!info || !alg || !sig || sig.tag !== 0x03) throw new Error("shape");
    const spki = children(info)[2];
    const oid = children(alg)[0];
    if (!spki || !oid) throw new Error("shape");
    const algorithm = ALGORITHMS[oid.body.toString("hex")];
    if (!algorithm) return "x509: cannot verify signature: algorithm unimplemented";
    const key = createPublicKey({ key: spki.raw, format: "der", type: "spki" });
    const ok = verify(algorithm.digest, info.raw, key, sig.body.subarray(1));
    return ok ? undefined : FAILURE[algorithm.family];
  } catch {
    return "x509: malformed certificate request";
  }
}

/** OID 2.5.4.10 (organizationName), DER body hex. */
const ORGANIZATION = "55040a";

/**
 * The subject's organizations (O=) of a base64-decoded `spec.request`; empty when it does not parse
 * (validation refuses such a request first).
 */
export function requestOrganizations(pem: Buffer): string[] {
  const block = pemBlocks(pem.toString("latin1"))[0];
  if (block?.type !== "CERTIFICATE REQUEST") return [];
  try {
    const info = children(readTlv(block.der, 0))[0];
    const subject = info && children(info)[1];
    if (!subject) return [];
    const out: string[] = [];
    for (const rdn of children(subject))
      for (const attribute of children(rdn)) {
        const [oid, value] = children(attribute);
        if (oid?.body.toString("hex") === ORGANIZATION && value) out.push(value.body.toString("utf8"));
      }
    return out;
  } catch {
    return [];
  }
}
