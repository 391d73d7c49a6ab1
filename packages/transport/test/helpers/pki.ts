import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** PEM material for a test CA, a server certificate (127.0.0.1, localhost, kube.test) and a client certificate. */
export interface TestPki {
  readonly dir: string;
  readonly caCert: string;
  readonly caCertPath: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
  readonly clientCertPath: string;
  readonly clientKeyPath: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
}

function newKeyAndCsr(dir: string, name: string, subject: string): void {
  openssl(dir, ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", `${name}.ec.key`]);
  // PKCS#8, the form most tools (and Node) expect.
  openssl(dir, ["pkcs8", "-topk8", "-nocrypt", "-in", `${name}.ec.key`, "-out", `${name}.key`]);
  openssl(dir, ["req", "-new", "-key", `${name}.key`, "-subj", subject, "-out", `${name}.csr`]);
}

function sign(dir: string, name: string, extensions: string): void {
  writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(dir, [
    "x509",
    "-req",
    "-in",
    `${name}.csr`,
    "-CA",
    "ca.crt",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-days",
    "2",
    "-sha256",
    "-extfile",
    `${name}.ext`,
    "-out",
    `${name}.crt`,
  ]);
}

/** Generates the PKI with the openssl CLI into `dir`. */
export function generatePki(dir: string): TestPki {
  openssl(dir, ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ca.ec.key"]);
  openssl(dir, ["pkcs8", "-topk8", "-nocrypt", "-in", "ca.ec.key", "-out", "ca.key"]);
  openssl(dir, [
    "req",
    "-x509",
    "-new",
    "-key",
    "ca.key",
    "-subj",
    "/CN=kubesdk-test-ca",
    "-days",
    "2",
    "-sha256",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
    "-out",
    "ca.crt",
  ]);
  newKeyAndCsr(dir, "server", "/CN=kube-apiserver");
  sign(
    dir,
    "server",
    "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kube.test\n",
  );
  newKeyAndCsr(dir, "client", "/CN=alice/O=devs");
  sign(dir, "client", "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n");
  const read = (f: string) => readFileSync(path.join(dir, f), "utf8");
  return {
    dir,
    caCert: read("ca.crt"),
    caCertPath: path.join(dir, "ca.crt"),
    serverCert: read("server.crt"),
    serverKey: read("server.key"),
    clientCert: read("client.crt"),
    clientKey: read("client.key"),
    clientCertPath: path.join(dir, "client.crt"),
    clientKeyPath: path.join(dir, "client.key"),
  };
}

/** Options for an HTTPS test server using this PKI, optionally requiring client certificates. */
export function serverTls(pki: TestPki, requireClientCert = false) {
  // The CA is given only to verify clients; otherwise the server would also send it in its chain.
  return requireClientCert
    ? { cert: pki.serverCert, key: pki.serverKey, ca: pki.caCert, requireClientCert }
    : { cert: pki.serverCert, key: pki.serverKey };
}
