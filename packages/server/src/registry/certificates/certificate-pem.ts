/**
 * Certificate PEM checks shared by CertificateSigningRequest status and ClusterTrustBundles: PEM
 * blocks of type CERTIFICATE without headers, each an X.509 certificate Node can parse.
 */
import { X509Certificate } from "node:crypto";
import { pemBlocks } from "../../validation/pem-blocks.js";

/** A CSR's issued certificate: empty, or CERTIFICATE blocks only. */
export function certificateProblem(pem: Buffer): string | undefined {
  if (pem.length === 0) return undefined;
  const blocks = pemBlocks(pem.toString("latin1"));
  if (blocks.length === 0) return "must contain at least one CERTIFICATE PEM block";
  for (const b of blocks) {
    if (b.type !== "CERTIFICATE")
      return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(b.type)}`;
    if (b.hasHeaders) return "no PEM block headers are permitted";
    if (!parses(b.der)) return "x509: malformed certificate";
  }
  return undefined;
}

export function parses(der: Buffer): X509Certificate | undefined {
  try {
    return new X509Certificate(der);
  } catch {
    return undefined;
  }
}
