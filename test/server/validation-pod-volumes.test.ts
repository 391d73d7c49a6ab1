/**
 * Issue 31: a pod's local, projected and ephemeral volume sources (emptyDir, hostPath, gitRepo,
 * secret, configMap, downwardAPI, projected, ephemeral claim templates).
 * Each row is sent with dryRun=All and answered as kube-apiserver 1.37 answers it; the broader
 * comparison is `pnpm diff:server` (scripts/differential/specs/pod-volume-bodies.ts).
 */
import { describe, expect, it } from "vitest";
import { type PodRow, podValidationSuite, podWith } from "./pod-validation-suite.js";
import { NAME_PART } from "./spec-validation-cases.js";

const { itAnswersPods, target, podPath } = podValidationSuite("val-podvol");

const FILE_MODE = "must be a number between 0 and 0777 (octal), both inclusive";

const ROWS: PodRow[] = [
  [
    "a negative emptyDir size limit",
    { volumes: [{ name: "v", emptyDir: { sizeLimit: "-1" } }] },
    {},
    [
      "volumes[0].emptyDir.sizeLimit | FieldValueForbidden | Forbidden: SizeLimit field must be a valid resource quantity",
    ],
  ],
  ["an unknown emptyDir medium", { volumes: [{ name: "v", emptyDir: { medium: "Foo" } }] }, {}, []],
  [
    "a hostPath with .. and an unknown type",
    { volumes: [{ name: "v", hostPath: { path: "/a/../b", type: "Foo" } }] },
    {},
    [
      "volumes[0].hostPath.path | FieldValueInvalid | Invalid value: \"/a/../b\": must not contain '..'",
      'volumes[0].hostPath.type | FieldValueNotSupported | Unsupported value: "Foo": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
    ],
  ],
  [
    "an absolute gitRepo directory with ..",
    { volumes: [{ name: "v", gitRepo: { repository: "r", directory: "/abs/../x" } }] },
    {},
    [
      'volumes[0].gitRepo.directory | FieldValueInvalid | Invalid value: "/abs/../x": must be a relative path',
      "volumes[0].gitRepo.directory | FieldValueInvalid | Invalid value: \"/abs/../x\": must not contain '..'",
    ],
  ],
  [
    "bad secret volume modes and items",
    {
      volumes: [
        {
          name: "v",
          secret: {
            secretName: "s",
            defaultMode: 1000,
            items: [
              { key: "", path: "" },
              { key: "k", path: "/a", mode: -1 },
              { key: "k", path: "..a" },
              { key: "k", path: "a/../b" },
            ],
          },
        },
      ],
    },
    {},
    [
      `volumes[0].secret.defaultMode | FieldValueInvalid | Invalid value: 1000: ${FILE_MODE}`,
      "volumes[0].secret.items[0].key | FieldValueRequired | Required value",
      "volumes[0].secret.items[0].path | FieldValueRequired | Required value",
      'volumes[0].secret.items[1].path | FieldValueInvalid | Invalid value: "/a": must be a relative path',
      `volumes[0].secret.items[1].mode | FieldValueInvalid | Invalid value: -1: ${FILE_MODE}`,
      "volumes[0].secret.items[2].path | FieldValueInvalid | Invalid value: \"..a\": must not start with '..'",
      "volumes[0].secret.items[3].path | FieldValueInvalid | Invalid value: \"a/../b\": must not contain '..'",
    ],
  ],
  [
    "a bad configMap default mode and item path",
    {
      volumes: [{ name: "v", configMap: { name: "c", defaultMode: -2, items: [{ key: "k", path: ".." }] } }],
    },
    {},
    [
      `volumes[0].configMap.defaultMode | FieldValueInvalid | Invalid value: -2: ${FILE_MODE}`,
      "volumes[0].configMap.items[0].path | FieldValueInvalid | Invalid value: \"..\": must not contain '..'",
      "volumes[0].configMap.items[0].path | FieldValueInvalid | Invalid value: \"..\": must not start with '..'",
    ],
  ],
  [
    "bad downwardAPI volume items",
    {
      volumes: [
        {
          name: "v",
          downwardAPI: {
            defaultMode: 512,
            items: [
              { path: "" },
              { path: "a", fieldRef: { fieldPath: "spec.nodeName" } },
              { path: "b", resourceFieldRef: { resource: "limits.cpu" } },
              {
                path: "c",
                fieldRef: { fieldPath: "metadata.name" },
                resourceFieldRef: { containerName: "c", resource: "limits.cpu" },
              },
              { path: "d", mode: 1000, resourceFieldRef: { containerName: "c", resource: "limits.foo" } },
              { path: "e", fieldRef: { fieldPath: "metadata.labels['a b']" } },
            ],
          },
        },
      ],
    },
    {},
    [
      `volumes[0].downwardAPI.defaultMode | FieldValueInvalid | Invalid value: 512: ${FILE_MODE}`,
      "volumes[0].downwardAPI.path | FieldValueRequired | Required value",
      "volumes[0].downwardAPI | FieldValueRequired | Required value: one of fieldRef and resourceFieldRef is required",
      'volumes[0].downwardAPI.fieldRef.fieldPath | FieldValueNotSupported | Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
      "volumes[0].downwardAPI.resourceFieldRef.containerName | FieldValueRequired | Required value",
      'volumes[0].downwardAPI | FieldValueInvalid | Invalid value: "resource": fieldRef and resourceFieldRef can not be specified simultaneously',
      'volumes[0].downwardAPI.resourceFieldRef.resource | FieldValueNotSupported | Unsupported value: "limits.foo": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
      `volumes[0].downwardAPI.mode | FieldValueInvalid | Invalid value: 1000: ${FILE_MODE}`,
      `volumes[0].downwardAPI.fieldRef | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
    ],
  ],
  [
    "downwardAPI annotation keys and hugepage divisors",
    {
      volumes: [
        {
          name: "v",
          downwardAPI: {
            items: [
              { path: "a", fieldRef: { fieldPath: "metadata.annotations['A B']" } },
              {
                path: "b",
                resourceFieldRef: { containerName: "c", resource: "requests.hugepages-2Mi", divisor: "3" },
              },
            ],
          },
        },
      ],
    },
    {},
    [
      `volumes[0].downwardAPI.fieldRef | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
      'volumes[0].downwardAPI.resourceFieldRef.divisor | FieldValueInvalid | Invalid value: "requests.hugepages-2Mi": only divisor\'s values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource',
    ],
  ],
  [
    "bad projected sources",
    {
      serviceAccountName: "default",
      volumes: [
        {
          name: "v",
          projected: {
            defaultMode: 1000,
            sources: [
              {},
              {
                secret: { items: [{ key: "k", path: "p" }] },
                configMap: { name: "c", items: [{ key: "k", path: "p" }] },
              },
              { downwardAPI: { items: [{ path: "p", fieldRef: { fieldPath: "metadata.name" } }] } },
              { serviceAccountToken: { path: "", expirationSeconds: 100 } },
              { serviceAccountToken: { path: "/abs", expirationSeconds: 5000000000 } },
              { clusterTrustBundle: { path: "q" } },
              { clusterTrustBundle: { name: "n", signerName: "a/b", path: "q" } },
            ],
          },
        },
      ],
    },
    {},
    [
      `volumes[0].projected.defaultMode | FieldValueInvalid | Invalid value: 1000: ${FILE_MODE}`,
      "volumes[0].projected.sources[1].secret.name | FieldValueRequired | Required value",
      'volumes[0].projected | FieldValueInvalid | Invalid value: "c": conflicting duplicate paths',
      "volumes[0].projected.sources[1] | FieldValueForbidden | Forbidden: may not specify more than 1 volume type per source",
      'volumes[0].projected | FieldValueInvalid | Invalid value: "p": conflicting duplicate paths',
      "volumes[0].projected.sources[3].serviceAccountToken.expirationSeconds | FieldValueInvalid | Invalid value: 100: may not specify a duration less than 10 minutes",
      "volumes[0].projected.path | FieldValueRequired | Required value",
      "volumes[0].projected.sources[4].serviceAccountToken.expirationSeconds | FieldValueInvalid | Invalid value: 5000000000: may not specify a duration larger than 2^32 seconds",
      'volumes[0].projected.path | FieldValueInvalid | Invalid value: "/abs": must be a relative path',
      "volumes[0].projected.sources[5].clusterTrustBundle | FieldValueRequired | Required value: either name or signerName must be specified",
      'volumes[0].projected.sources[6].clusterTrustBundle | FieldValueInvalid | Invalid value: {"Name":"n","SignerName":"a/b","LabelSelector":null,"Optional":null,"Path":"q","User":null}: only one of name and signerName may be used',
      'volumes[0].projected | FieldValueInvalid | Invalid value: "q": conflicting duplicate paths',
    ],
  ],
  [
    "bad ephemeral claim templates",
    {
      volumes: [
        { name: "v", ephemeral: {} },
        {
          name: "w",
          ephemeral: { volumeClaimTemplate: { metadata: { name: "x", labels: { "a b": "c" } }, spec: {} } },
        },
      ],
    },
    {},
    [
      "volumes[0].ephemeral.volumeClaimTemplate | FieldValueRequired | Required value",
      `volumes[1].ephemeral.volumeClaimTemplate.metadata.labels | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
      "volumes[1].ephemeral.volumeClaimTemplate.metadata.name | FieldValueForbidden | Forbidden: cannot be set",
      "volumes[1].ephemeral.volumeClaimTemplate.spec.accessModes | FieldValueRequired | Required value: at least 1 access mode is required",
      "volumes[1].ephemeral.volumeClaimTemplate.spec.resources[storage] | FieldValueRequired | Required value",
    ],
  ],
  [
    "a valid ephemeral volume",
    {
      volumes: [
        {
          name: "w",
          ephemeral: {
            volumeClaimTemplate: {
              spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
            },
          },
        },
      ],
    },
    {},
    [],
  ],
];

/** Volume sources as sent and as core/v1 defaulting completes them. */
const DEFAULTED: [Record<string, unknown>, Record<string, unknown>][] = [
  [{ secret: { secretName: "s" } }, { secret: { secretName: "s", defaultMode: 420 } }],
  [{ configMap: { name: "c" } }, { configMap: { name: "c", defaultMode: 420 } }],
  [
    { downwardAPI: { items: [{ path: "n", fieldRef: { fieldPath: "metadata.name" } }] } },
    {
      downwardAPI: {
        defaultMode: 420,
        items: [{ path: "n", fieldRef: { apiVersion: "v1", fieldPath: "metadata.name" } }],
      },
    },
  ],
  [
    { projected: { sources: [{ serviceAccountToken: { path: "t" } }] } },
    {
      projected: {
        defaultMode: 420,
        sources: [{ serviceAccountToken: { path: "t", expirationSeconds: 3600 } }],
      },
    },
  ],
  [{ hostPath: { path: "/x" } }, { hostPath: { path: "/x", type: "" } }],
  [
    { rbd: { monitors: ["m"], image: "i" } },
    { rbd: { monitors: ["m"], image: "i", pool: "rbd", user: "admin", keyring: "/etc/ceph/keyring" } },
  ],
  [
    { azureDisk: { diskName: "d", diskURI: "https://x" } },
    {
      azureDisk: {
        diskName: "d",
        diskURI: "https://x",
        cachingMode: "ReadWrite",
        fsType: "ext4",
        readOnly: false,
        kind: "Shared",
      },
    },
  ],
  [
    { image: { reference: "busybox:1.36" } },
    { image: { reference: "busybox:1.36", pullPolicy: "IfNotPresent" } },
  ],
];

describe("local, projected and ephemeral volumes", () => {
  itAnswersPods(ROWS);
  it("completes volume sources with core/v1's defaults", async () => {
    const volumes = DEFAULTED.map(([source], i) => ({ name: `v${i}`, ...source }));
    const res = await target().call("POST", `${podPath()}?dryRun=All`, { body: podWith({ volumes }, {}) });
    expect(res.status).toBe(201);
    const sent = new Set(volumes.map((v) => v.name));
    const stored = res.json.spec.volumes.filter((v: { name: string }) => sent.has(v.name));
    expect(stored).toEqual(DEFAULTED.map(([, source], i) => ({ name: `v${i}`, ...source })));
  });
});
