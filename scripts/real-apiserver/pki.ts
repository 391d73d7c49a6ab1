import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { RealApiserverError } from "./errors.js";

const execFileAsync = promisify(execFile);

/** Files kube-apiserver needs for TLS, token authentication and service-account tokens. */
export interface ApiserverPki {
  caCertPath: string;
  caPem: string;
  servingCertPath: string;
  servingKeyPath: string;
  serviceAccountKeyPath: string;
  serviceAccountPublicKeyPath: string;
  tokenFilePath: string;
  adminToken: string;
}

const validityDays = "30";
// Names a client may dial: loopback plus the in-cluster service names and the
// first address of --service-cluster-ip-range, as a real serving cert has.
const servingSubjectAltNames = [
  "IP:127.0.0.1",
  "DNS:localhost",
  "DNS:kubernetes",
  "DNS:kubernetes.default",
  "DNS:kubernetes.default.svc",
  "DNS:kubernetes.default.svc.cluster.local",
  "IP:10.0.0.1",
].join(",");

// Node's crypto can make keys but not X.509 certificates, hence the openssl CLI.
async function openssl(args: readonly string[]): Promise<void> {
  try {
    await execFileAsync("openssl", args);
  } catch (cause) {
    const stderr = (cause as { stderr?: unknown }).stderr;
    throw new RealApiserverError(
      "OPENSSL_FAILED",
      `openssl ${args[0] ?? ""} failed: ${typeof stderr === "string" ? stderr.trim() : String(cause)}`,
      { cause },
    );
  }
}

const ecKeyParams = ["-pkeyopt", "ec_paramgen_curve:prime256v1"];

interface CertificateRequest {
  subject: string;
  extensions: readonly string[];
  keyPath: string;
  certPath: string;
  /** Signing CA; a self-signed certificate when absent. */
  issuer?: { certPath: string; keyPath: string };
}

/** A fresh P-256 key and an X.509 certificate for it, in one `openssl req -x509` call. */
function issueCertificate(request: CertificateRequest): Promise<void> {
  const issuer = request.issuer ? ["-CA", request.issuer.certPath, "-CAkey", request.issuer.keyPath] : [];
  const extensions = request.extensions.flatMap((extension) => ["-addext", extension]);
  return openssl([
    ...["req", "-x509", "-noenc", "-newkey", "ec", ...ecKeyParams, "-days", validityDays],
    ...[...issuer, "-subj", request.subject, ...extensions],
    ...["-keyout", request.keyPath, "-out", request.certPath],
  ]);
}

/** Generates a CA, a serving certificate for 127.0.0.1, a service-account key pair and a token file. */
export async function createApiserverPki(dir: string): Promise<ApiserverPki> {
  const path = (name: string) => join(dir, name);
  const ca = { certPath: path("ca.crt"), keyPath: path("ca.key") };
  await issueCertificate({
    ...ca,
    subject: "/CN=kubesdk-real-apiserver-ca",
    extensions: ["basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign"],
  });
  await issueCertificate({
    certPath: path("serving.crt"),
    keyPath: path("serving.key"),
    issuer: ca,
    subject: "/CN=kube-apiserver",
    extensions: [
      "basicConstraints=critical,CA:FALSE",
      "keyUsage=critical,digitalSignature,keyEncipherment",
      "extendedKeyUsage=serverAuth",
      `subjectAltName=${servingSubjectAltNames}`,
    ],
  });
  // Service-account tokens are signed with this key (ES256) and verified with its public half.
  await openssl(["genpkey", "-algorithm", "EC", ...ecKeyParams, "-out", path("sa.key")]);
  await openssl(["pkey", "-in", path("sa.key"), "-pubout", "-out", path("sa.pub")]);

  const adminToken = randomBytes(32).toString("hex");
  // Static token file rows: token,user,uid,"group,group".
  await writeFile(path("tokens.csv"), `${adminToken},kubesdk-admin,kubesdk-admin,"system:masters"\n`, {
    mode: 0o600,
  });

  return {
    caCertPath: path("ca.crt"),
    caPem: await readFile(path("ca.crt"), "utf8"),
    servingCertPath: path("serving.crt"),
    servingKeyPath: path("serving.key"),
    serviceAccountKeyPath: path("sa.key"),
    serviceAccountPublicKeyPath: path("sa.pub"),
    tokenFilePath: path("tokens.csv"),
    adminToken,
  };
}
