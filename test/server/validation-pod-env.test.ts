/**
 * Issue 31: a container's env (names, valueFrom sources: downward API field and resource
 * references, config map and secret keys, file keys) and envFrom (prefixes, sources).
 * Each row is sent with dryRun=All and answered as kube-apiserver 1.37 answers it; the broader
 * comparison is `pnpm diff:server` (scripts/differential/specs/pod-env-bodies.ts).
 */
import { describe, expect, it } from "vitest";
import { type PodRow, podValidationSuite, podWith } from "./pod-validation-suite.js";
import { DNS_SUBDOMAIN, NAME_PART } from "./spec-validation-cases.js";

const { itAnswersPods, target, podPath } = podValidationSuite("val-podenv");

const ENV_NAME =
  "a valid environment variable name must consist only of printable ASCII characters other than '='";

const ROWS: PodRow[] = [
  [
    "valid env sources",
    {},
    {
      env: [
        { name: "A", value: "x" },
        { name: "B", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
        { name: "C", valueFrom: { resourceFieldRef: { resource: "limits.cpu", divisor: "1m" } } },
        { name: "D", valueFrom: { configMapKeyRef: { name: "cm", key: "k" } } },
        { name: "E", valueFrom: { secretKeyRef: { name: "s", key: "k.x" } } },
        { name: "F", valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
        { name: "G", valueFrom: { resourceFieldRef: { resource: "requests.hugepages-2Mi" } } },
      ],
    },
    [],
  ],
  [
    "env names with '=' and non-ASCII",
    {},
    { env: [{ name: "1a b" }, { name: "a=b" }, { name: "\u00e9" }] },
    [
      `containers[0].env[1].name | FieldValueInvalid | Invalid value: "a=b": ${ENV_NAME}`,
      `containers[0].env[2].name | FieldValueInvalid | Invalid value: "é": ${ENV_NAME}`,
    ],
  ],
  [
    "an empty valueFrom",
    {},
    { env: [{ name: "A", valueFrom: {} }] },
    [
      'containers[0].env[0].valueFrom | FieldValueInvalid | Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`',
    ],
  ],
  [
    "value beside valueFrom",
    {},
    { env: [{ name: "A", value: "x", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } }] },
    [
      'containers[0].env[0].valueFrom | FieldValueInvalid | Invalid value: "": may not be specified when `value` is not empty',
    ],
  ],
  [
    "two valueFrom sources",
    {},
    {
      env: [
        {
          name: "A",
          valueFrom: { fieldRef: { fieldPath: "metadata.name" }, configMapKeyRef: { name: "cm", key: "k" } },
        },
      ],
    },
    [
      'containers[0].env[0].valueFrom | FieldValueInvalid | Invalid value: "": may not have more than one field specified at a time',
    ],
  ],
  [
    "an unknown fieldRef path",
    {},
    { env: [{ name: "A", valueFrom: { fieldRef: { fieldPath: "spec.foo" } } }] },
    [
      'containers[0].env[0].valueFrom.fieldRef.fieldPath | FieldValueInvalid | Invalid value: "spec.foo": error converting fieldPath: field label not supported: spec.foo',
    ],
  ],
  [
    "a fieldRef of another apiVersion",
    {},
    { env: [{ name: "A", valueFrom: { fieldRef: { apiVersion: "v2", fieldPath: "metadata.name" } } }] },
    [
      'containers[0].env[0].valueFrom.fieldRef.fieldPath | FieldValueInvalid | Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2',
    ],
  ],
  [
    "fieldRef subscripts",
    {},
    {
      env: [
        { name: "A", valueFrom: { fieldRef: { fieldPath: "metadata.labels['a b']" } } },
        { name: "B", valueFrom: { fieldRef: { fieldPath: "metadata.name['x']" } } },
        { name: "C", valueFrom: { fieldRef: { fieldPath: "metadata.annotations['A/B']" } } },
      ],
    },
    [
      `containers[0].env[0].valueFrom.fieldRef | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
      "containers[0].env[1].valueFrom.fieldRef.fieldPath | FieldValueInvalid | Invalid value: \"metadata.name['x']\": error converting fieldPath: field label does not support subscript: metadata.name['x']",
    ],
  ],
  [
    "an env fieldRef to all labels",
    {},
    { env: [{ name: "A", valueFrom: { fieldRef: { fieldPath: "metadata.labels" } } }] },
    [
      'containers[0].env[0].valueFrom.fieldRef.fieldPath | FieldValueNotSupported | Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
    ],
  ],
  [
    "resourceFieldRef resources and divisors",
    {},
    {
      env: [
        { name: "A", valueFrom: { resourceFieldRef: { resource: "limits.gpu" } } },
        { name: "B", valueFrom: { resourceFieldRef: { resource: "" } } },
        { name: "C", valueFrom: { resourceFieldRef: { resource: "limits.cpu", divisor: "2" } } },
        { name: "D", valueFrom: { resourceFieldRef: { resource: "limits.memory", divisor: "1m" } } },
        {
          name: "E",
          valueFrom: { resourceFieldRef: { resource: "requests.ephemeral-storage", divisor: "3" } },
        },
        { name: "F", valueFrom: { resourceFieldRef: { resource: "limits.hugepages-1Gi", divisor: "5" } } },
      ],
    },
    [
      'containers[0].env[0].valueFrom.resourceFieldRef.resource | FieldValueNotSupported | Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
      "containers[0].env[1].valueFrom.resourceFieldRef.resource | FieldValueRequired | Required value",
      'containers[0].env[2].valueFrom.resourceFieldRef.divisor | FieldValueInvalid | Invalid value: "limits.cpu": only divisor\'s values 1m and 1 are supported with the cpu resource',
      'containers[0].env[3].valueFrom.resourceFieldRef.divisor | FieldValueInvalid | Invalid value: "limits.memory": only divisor\'s values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource',
      'containers[0].env[4].valueFrom.resourceFieldRef.divisor | FieldValueInvalid | Invalid value: "requests.ephemeral-storage": only divisor\'s values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the local ephemeral storage resource',
      'containers[0].env[5].valueFrom.resourceFieldRef.divisor | FieldValueInvalid | Invalid value: "limits.hugepages-1Gi": only divisor\'s values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource',
    ],
  ],
  [
    "an env resourceFieldRef naming another container",
    {},
    {
      env: [{ name: "A", valueFrom: { resourceFieldRef: { containerName: "zz", resource: "limits.cpu" } } }],
    },
    [],
  ],
  [
    "config map and secret key selectors",
    {},
    {
      env: [
        { name: "A", valueFrom: { configMapKeyRef: { name: "Bad_Name", key: "a b" } } },
        { name: "B", valueFrom: { configMapKeyRef: {} } },
        { name: "C", valueFrom: { secretKeyRef: { name: "", key: ".." } } },
      ],
    },
    [
      `containers[0].env[0].valueFrom.configMapKeyRef.name | FieldValueInvalid | Invalid value: "Bad_Name": ${DNS_SUBDOMAIN}`,
      "containers[0].env[0].valueFrom.configMapKeyRef.key | FieldValueInvalid | Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      `containers[0].env[1].valueFrom.configMapKeyRef.name | FieldValueInvalid | Invalid value: "": ${DNS_SUBDOMAIN}`,
      "containers[0].env[1].valueFrom.configMapKeyRef.key | FieldValueRequired | Required value",
      `containers[0].env[2].valueFrom.secretKeyRef.name | FieldValueInvalid | Invalid value: "": ${DNS_SUBDOMAIN}`,
      "containers[0].env[2].valueFrom.secretKeyRef.key | FieldValueInvalid | Invalid value: \"..\": must not be '..'",
    ],
  ],
  [
    "valid envFrom sources",
    {},
    { envFrom: [{ configMapRef: { name: "cm" } }, { prefix: "P_", secretRef: { name: "s" } }] },
    [],
  ],
  [
    "envFrom prefixes and sources",
    {},
    {
      envFrom: [
        { prefix: "a=b" },
        { configMapRef: { name: "cm" }, secretRef: { name: "s" } },
        { configMapRef: { name: "Bad" } },
        { secretRef: {} },
        { configMapRef: { name: "cm-" } },
      ],
    },
    [
      `containers[0].envFrom[0].prefix | FieldValueInvalid | Invalid value: "a=b": ${ENV_NAME}`,
      'containers[0].envFrom | FieldValueInvalid | Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
      'containers[0].envFrom | FieldValueInvalid | Invalid value: "": may not have more than one field specified at a time',
      `containers[0].envFrom[2].configMapRef.name | FieldValueInvalid | Invalid value: "Bad": ${DNS_SUBDOMAIN}`,
      "containers[0].envFrom[3].secretRef.name | FieldValueRequired | Required value",
    ],
  ],
  [
    "a valid fileKeyRef",
    { volumes: [{ name: "v", emptyDir: {} }] },
    { env: [{ name: "A", valueFrom: { fileKeyRef: { volumeName: "v", path: "a.env", key: "K" } } }] },
    [],
  ],
  [
    "fileKeyRef fields and volumes",
    {
      volumes: [
        { name: "v", emptyDir: {} },
        { name: "w", configMap: { name: "x" } },
      ],
    },
    {
      env: [
        { name: "A", valueFrom: { fileKeyRef: {} } },
        { name: "B", valueFrom: { fileKeyRef: { volumeName: "zz", path: "/abs", key: "a=b" } } },
        { name: "C", valueFrom: { fileKeyRef: { volumeName: "w", path: "../x", key: "K" } } },
      ],
    },
    [
      "containers[0].env[0].valueFrom.fileKeyRef.key | FieldValueRequired | Required value",
      "containers[0].env[0].valueFrom.fileKeyRef.volumeName | FieldValueRequired | Required value",
      "containers[0].env[0].valueFrom.fileKeyRef.path | FieldValueRequired | Required value",
      `containers[0].env[1].valueFrom.fileKeyRef.key | FieldValueInvalid | Invalid value: "a=b": ${ENV_NAME}`,
      "containers[0].env[2].valueFrom.fileKeyRef.path | FieldValueInvalid | Invalid value: \"../x\": must not contain '..'",
      'containers[0].env[0].valueFrom.fileKeyRef.volumeName | FieldValueNotFound | Not found: ""',
      'containers[0].env[1].valueFrom.fileKeyRef.volumeName | FieldValueNotFound | Not found: "zz"',
      'containers[0].env[2].valueFrom.fileKeyRef.volumeName | FieldValueInvalid | Invalid value: "w": referenced volume must be of type emptyDir',
    ],
  ],
  [
    "legacy and unsupported fieldRef labels",
    {},
    {
      env: [
        { name: "A", valueFrom: { fieldRef: { fieldPath: "spec.host" } } },
        { name: "B", valueFrom: { fieldRef: { fieldPath: "status.phase" } } },
        { name: "C", valueFrom: { fieldRef: { fieldPath: "metadata.annotations['x']" } } },
        { name: "D", valueFrom: { fieldRef: { fieldPath: "['x']" } } },
        { name: "E", valueFrom: { fieldRef: { fieldPath: "metadata.labels['']" } } },
      ],
    },
    [
      'containers[0].env[1].valueFrom.fieldRef.fieldPath | FieldValueNotSupported | Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
      "containers[0].env[3].valueFrom.fieldRef.fieldPath | FieldValueInvalid | Invalid value: \"['x']\": error converting fieldPath: field label not supported: ['x']",
      'containers[0].env[4].valueFrom.fieldRef | FieldValueInvalid | Invalid value: "": name part must be non-empty',
      `containers[0].env[4].valueFrom.fieldRef | FieldValueInvalid | Invalid value: "": ${NAME_PART}`,
    ],
  ],
  [
    "hugepage, zero and equivalent divisors",
    {},
    {
      env: [
        { name: "A", valueFrom: { resourceFieldRef: { resource: "limits.hugepages-", divisor: "1Mi" } } },
        { name: "B", valueFrom: { resourceFieldRef: { resource: "limits.cpu", divisor: "0" } } },
        { name: "C", valueFrom: { resourceFieldRef: { resource: "limits.cpu", divisor: "1000m" } } },
        { name: "D", valueFrom: { resourceFieldRef: { resource: "limits.foo", divisor: "7" } } },
      ],
    },
    [
      'containers[0].env[3].valueFrom.resourceFieldRef.resource | FieldValueNotSupported | Unsupported value: "limits.foo": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
    ],
  ],
  [
    "fileKeyRef paths that are absolute or start with ..",
    { volumes: [{ name: "v", emptyDir: {} }] },
    {
      env: [
        { name: "A", valueFrom: { fileKeyRef: { volumeName: "v", path: "/abs", key: "K" } } },
        { name: "B", valueFrom: { fileKeyRef: { volumeName: "v", path: "..x", key: "K" } } },
      ],
    },
    [],
  ],
];

describe("a container's env and envFrom", () => {
  itAnswersPods(ROWS);
  it("completes downward API references with core/v1's defaults", async () => {
    const env = [
      { name: "A", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
      { name: "B", valueFrom: { resourceFieldRef: { resource: "limits.cpu" } } },
    ];
    const res = await target().call("POST", `${podPath()}?dryRun=All`, { body: podWith({}, { env }) });
    expect(res.status).toBe(201);
    expect(res.json.spec.containers[0].env).toEqual([
      { name: "A", valueFrom: { fieldRef: { apiVersion: "v1", fieldPath: "metadata.name" } } },
      { name: "B", valueFrom: { resourceFieldRef: { resource: "limits.cpu", divisor: "0" } } },
    ]);
  });
});
