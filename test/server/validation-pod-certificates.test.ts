/**
 * Issue 31: the certificate projections of a projected volume: cluster trust bundles (by name, or
 * by signer and selector) and pod certificates (signer, key type, files, user annotations).
 * Each row is sent with dryRun=All and answered as kube-apiserver 1.37 answers it; the broader
 * comparison is `pnpm diff:server` (scripts/differential/specs/pod-volume-bodies.ts).
 */
import { describe } from "vitest";
import { type PodRow, podValidationSuite } from "./pod-validation-suite.js";
import { DNS_LABEL, DNS_SUBDOMAIN, NAME_PART } from "./spec-validation-cases.js";

const { itAnswersPods } = podValidationSuite("val-podcert");

/** A volume `v` projecting the given sources. */
const projected = (...sources: Record<string, unknown>[]) => ({
  volumes: [{ name: "v", projected: { sources } }],
});

const ROWS: PodRow[] = [
  [
    "an empty pod certificate",
    projected({ podCertificate: {} }),
    {},
    [
      "volumes[0].projected.sources[0].podCertificate.signerName | FieldValueRequired | Required value",
      'volumes[0].projected.sources[0].podCertificate.keyType | FieldValueNotSupported | Unsupported value: "": supported values: "RSA3072", "RSA4096", "ECDSAP256", "ECDSAP384", "ECDSAP521", "ED25519"',
      "volumes[0].projected.sources[0].podCertificate | FieldValueRequired | Required value: specify at least one of credentialBundlePath, keyPath, and certificateChainPath",
    ],
  ],
  [
    "a bad pod certificate signer, key type and path",
    projected({ podCertificate: { signerName: "bad", keyType: "Foo", credentialBundlePath: "/abs" } }),
    {},
    [
      "volumes[0].projected.sources[0].podCertificate.signerName | FieldValueInvalid | Invalid value: \"bad\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
      'volumes[0].projected.sources[0].podCertificate.keyType | FieldValueNotSupported | Unsupported value: "Foo": supported values: "RSA3072", "RSA4096", "ECDSAP256", "ECDSAP384", "ECDSAP521", "ED25519"',
      'volumes[0].projected.sources[0].podCertificate.credentialBundlePath | FieldValueInvalid | Invalid value: "/abs": must be a relative path',
    ],
  ],
  [
    "a trust bundle name of a signer with a bad suffix",
    projected({ clusterTrustBundle: { name: "a:b:Bad_x", path: "p" } }),
    {},
    [
      `volumes[0].projected.sources[0].clusterTrustBundle.name | FieldValueInvalid | Invalid value: "a:b:Bad_x": not a valid clustertrustbundlename: ${DNS_SUBDOMAIN}`,
    ],
  ],
  [
    "a bad trust bundle signer and selector",
    projected({
      clusterTrustBundle: { signerName: "bad", path: "p", labelSelector: { matchLabels: { "a b": "c" } } },
    }),
    {},
    [
      "volumes[0].projected.sources[0].clusterTrustBundle.signerName | FieldValueInvalid | Invalid value: \"bad\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
      `volumes[0].projected.sources[0].clusterTrustBundle.labelSelector.matchLabels | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
    ],
  ],
  [
    "a trust bundle name with a selector",
    projected({ clusterTrustBundle: { name: "n", path: "p", labelSelector: { matchLabels: { a: "c" } } } }),
    {},
    [
      'volumes[0].projected.sources[0].clusterTrustBundle.labelSelector | FieldValueInvalid | Invalid value: {"matchLabels":{"a":"c"}}: labelSelector must be unset if name is specified',
    ],
  ],
  [
    "a valid pod certificate",
    projected({
      podCertificate: { signerName: "example.com/s", keyType: "ED25519", credentialBundlePath: "b" },
    }),
    {},
    [],
  ],
  [
    "a pod certificate writing only its key",
    projected({ podCertificate: { signerName: "example.com/s", keyType: "RSA3072", keyPath: "k" } }),
    {},
    [],
  ],
  [
    "pod certificate paths used twice",
    projected(
      {
        podCertificate: {
          signerName: "example.com/s",
          keyType: "RSA3072",
          keyPath: "k",
          certificateChainPath: "k",
          credentialBundlePath: "../x",
        },
      },
      { configMap: { name: "c", items: [{ key: "a", path: "k" }] } },
    ),
    {},
    [
      "volumes[0].projected.sources[0].podCertificate.credentialBundlePath | FieldValueInvalid | Invalid value: \"../x\": must not contain '..'",
      'volumes[0].projected | FieldValueInvalid | Invalid value: "k": conflicting duplicate paths',
      'volumes[0].projected | FieldValueInvalid | Invalid value: "c": conflicting duplicate paths',
    ],
  ],
  [
    "a bad pod certificate user annotation",
    projected({
      podCertificate: {
        signerName: "example.com/s",
        keyType: "RSA3072",
        credentialBundlePath: "b",
        userAnnotations: { "a b": "c" },
      },
    }),
    {},
    [
      `volumes[0].projected.sources[0].podCertificate.userAnnotations | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
    ],
  ],
  [
    "a valid trust bundle signer",
    projected({ clusterTrustBundle: { signerName: "example.com/s", path: "p" } }),
    {},
    [],
  ],
  [
    "trust bundle signers of bad forms",
    projected(
      { clusterTrustBundle: { signerName: "Example.com/S", path: "p" } },
      { clusterTrustBundle: { signerName: "example.com/a/b", path: "q" } },
      { clusterTrustBundle: { signerName: "example/s", path: "r" } },
    ),
    {},
    [
      `volumes[0].projected.sources[0].clusterTrustBundle.signerName | FieldValueInvalid | Invalid value: "Example.com": validating label "Example": ${DNS_LABEL}`,
      `volumes[0].projected.sources[0].clusterTrustBundle.signerName | FieldValueInvalid | Invalid value: "S": validating label "S": ${DNS_SUBDOMAIN}`,
      "volumes[0].projected.sources[1].clusterTrustBundle.signerName | FieldValueInvalid | Invalid value: \"example.com/a/b\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
      'volumes[0].projected.sources[2].clusterTrustBundle.signerName | FieldValueInvalid | Invalid value: "example": should be a domain with at least two segments separated by dots',
    ],
  ],
  [
    "an empty trust bundle name",
    projected({ clusterTrustBundle: { name: "", path: "p" } }),
    {},
    [
      "volumes[0].projected.sources[0].clusterTrustBundle.name | FieldValueRequired | Required value: must be a valid object name",
      `volumes[0].projected.sources[0].clusterTrustBundle.name | FieldValueInvalid | Invalid value: "": not a valid clustertrustbundlename: ${DNS_SUBDOMAIN}`,
    ],
  ],
  [
    "an empty trust bundle signer",
    projected({ clusterTrustBundle: { signerName: "", path: "p" } }),
    {},
    [
      "volumes[0].projected.sources[0].clusterTrustBundle.signerName | FieldValueRequired | Required value: must be a valid signer name",
      "volumes[0].projected.sources[0].clusterTrustBundle.signerName | FieldValueRequired | Required value",
    ],
  ],
  [
    "a trust bundle name of a signer",
    projected({ clusterTrustBundle: { name: "example.com:s:abc", path: "p" } }),
    {},
    [],
  ],
  [
    "a trust bundle name ending in a colon",
    projected({ clusterTrustBundle: { name: "a:", path: "p" } }),
    {},
    [
      `volumes[0].projected.sources[0].clusterTrustBundle.name | FieldValueInvalid | Invalid value: "a:": not a valid clustertrustbundlename: ${DNS_SUBDOMAIN}`,
    ],
  ],
  [
    "a trust bundle selector without values",
    projected({
      clusterTrustBundle: {
        signerName: "example.com/s",
        path: "p",
        labelSelector: { matchExpressions: [{ key: "a", operator: "In" }] },
      },
    }),
    {},
    [
      "volumes[0].projected.sources[0].clusterTrustBundle.labelSelector.matchExpressions[0].values | FieldValueRequired | Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ],
  ],
  [
    "pod certificate paths that are absolute or start with ..",
    projected({
      podCertificate: {
        signerName: "example.com/s",
        keyType: "RSA3072",
        keyPath: "..k",
        certificateChainPath: "/c",
      },
    }),
    {},
    [
      "volumes[0].projected.sources[0].podCertificate.keyPath | FieldValueInvalid | Invalid value: \"..k\": must not start with '..'",
      'volumes[0].projected.sources[0].podCertificate.certificateChainPath | FieldValueInvalid | Invalid value: "/c": must be a relative path',
    ],
  ],
];

describe("certificate projections", () => itAnswersPods(ROWS));
