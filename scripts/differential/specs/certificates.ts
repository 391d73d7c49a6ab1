/** Spec cases for certificates.k8s.io: CertificateSigningRequest and ClusterTrustBundle. */
import type { Fixtures } from "../kinds.js";
import { pick, type Random, type SpecGroup, type SpecVariant, word } from "./types.js";

const G = "certificates.k8s.io";
const b64 = (s: string) => Buffer.from(s).toString("base64");

function csrs(rnd: Random, fx: Fixtures): SpecVariant[] {
  const w = () => word(rnd);
  const spec = (s: Record<string, unknown>) => ({
    spec: { request: fx.csrBase64, signerName: `example.com/${w()}`, usages: ["client auth"], ...s },
  });
  const pem = Buffer.from(fx.csrBase64, "base64").toString();
  const notRequest = pem.replace(/CERTIFICATE REQUEST/g, "CERTIFICATE");
  return [
    ["valid", spec({})],
    ["valid-expiration", spec({ expirationSeconds: 3600 })],
    ["no-request", spec({ request: "" })],
    ["request-not-pem", spec({ request: b64(w()) })],
    ["request-wrong-block", spec({ request: b64(notRequest) })],
    ["no-usages", spec({ usages: [] })],
    ["usage-bad", spec({ usages: [w()] })],
    ["usage-duplicate", spec({ usages: ["client auth", "client auth"] })],
    ["usages-many", spec({ usages: ["digital signature", "key encipherment", "server auth"] })],
    ["signer-empty", spec({ signerName: "" })],
    ["signer-legacy", spec({ signerName: "kubernetes.io/legacy-unknown" })],
    ["signer-kubelet", spec({ signerName: "kubernetes.io/kube-apiserver-client-kubelet" })],
    ["signer-no-path", spec({ signerName: "example.com" })],
    ["signer-one-label", spec({ signerName: `${w()}/x` })],
    ["signer-upper", spec({ signerName: "Example.com/x" })],
    ["signer-bad-path", spec({ signerName: "example.com/a_b" })],
    ["signer-two-slashes", spec({ signerName: "example.com/a/b" })],
    ["expiration-short", spec({ expirationSeconds: pick(rnd, [0, 1, 599]) })],
    ["no-spec", {}],
  ];
}

function trustBundles(_rnd: Random, fx: Fixtures): SpecVariant[] {
  const bundle = (trustBundle: string) => ({ spec: { trustBundle } });
  return [
    ["valid", bundle(fx.caPem)],
    ["empty", bundle("")],
    ["duplicate", bundle(fx.caPem + fx.caPem)],
    ["not-pem", bundle("hello")],
    ["wrong-block", bundle(fx.caPem.replace(/CERTIFICATE/g, "PRIVATE KEY"))],
    ["bad-der", bundle("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")],
    ["headers", bundle(fx.caPem.replace("-----\n", "-----\nProc-Type: 4,ENCRYPTED\n\n"))],
    ["no-spec", {}],
  ];
}

function signedBundles(_rnd: Random, fx: Fixtures): SpecVariant[] {
  return [
    ["signer-valid", { spec: { signerName: "example.com/s", trustBundle: fx.caPem } }],
    ["signer-mismatch", { spec: { signerName: "example.com/t", trustBundle: fx.caPem } }],
  ];
}

export const certificates: SpecGroup = {
  name: "certificates",
  kinds: [
    { id: `${G}/certificatesigningrequests`, variants: csrs },
    { id: `${G}/clustertrustbundles`, variants: trustBundles },
    { id: `${G}/clustertrustbundles`, name: "example.com:s:bundle", variants: signedBundles },
  ],
};
