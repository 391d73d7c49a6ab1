/**
 * Issue 31: a pod's OS rules (spec.os, and the fields forbidden for Linux or Windows pods),
 * resource claims of the pod and its containers, and containers' resize policies.
 * Each row is sent with dryRun=All and answered as kube-apiserver 1.37 answers it; the broader
 * comparison is `pnpm diff:server` (scripts/differential/specs/pod-env-bodies.ts).
 */
import { describe } from "vitest";
import { type PodRow, podValidationSuite } from "./pod-validation-suite.js";
import { DNS_LABEL, DNS_SUBDOMAIN } from "./spec-validation-cases.js";

const { itAnswersPods } = podValidationSuite("val-podos");

const NOT_WINDOWS = "cannot be set for a windows pod";

const ROWS: PodRow[] = [
  [
    "an unknown OS",
    { os: { name: "mac" } },
    {},
    ['os | FieldValueNotSupported | Unsupported value: "mac": supported values: "linux", "windows"'],
  ],
  ["an OS without a name", { os: {} }, {}, ["os.name | FieldValueRequired | Required value"]],
  [
    "Windows options on a Linux pod",
    { os: { name: "linux" }, securityContext: { windowsOptions: { runAsUserName: "x" } } },
    { securityContext: { windowsOptions: { runAsUserName: "x" } } },
    [
      "securityContext.windowsOptions | FieldValueForbidden | Forbidden: windows options cannot be set for a linux pod",
      "containers[0].securityContext.windowsOptions | FieldValueForbidden | Forbidden: windows options cannot be set for a linux pod",
    ],
  ],
  [
    "Linux-only security fields on a Windows pod",
    {
      os: { name: "windows" },
      shareProcessNamespace: true,
      securityContext: {
        runAsUser: 1,
        runAsGroup: 1,
        fsGroup: 1,
        supplementalGroups: [1],
        sysctls: [{ name: "kernel.shm_rmid_forced", value: "1" }],
        seccompProfile: { type: "RuntimeDefault" },
        seLinuxOptions: { level: "s0" },
        fsGroupChangePolicy: "Always",
        appArmorProfile: { type: "RuntimeDefault" },
        supplementalGroupsPolicy: "Merge",
        seLinuxChangePolicy: "Recursive",
      },
    },
    {
      securityContext: {
        runAsUser: 1,
        runAsGroup: 1,
        privileged: false,
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: {},
        seccompProfile: { type: "RuntimeDefault" },
        seLinuxOptions: { level: "s0" },
        procMount: "Default",
        appArmorProfile: { type: "RuntimeDefault" },
      },
    },
    [
      `securityContext.appArmorProfile | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `securityContext.seLinuxOptions | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `securityContext.seccompProfile | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `securityContext.fsGroup | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `securityContext.fsGroupChangePolicy | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `securityContext.sysctls | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `securityContext.runAsUser | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `securityContext.runAsGroup | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `securityContext.supplementalGroups | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `securityContext.supplementalGroupsPolicy | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `securityContext.seLinuxChangePolicy | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `shareProcessNamespace | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `containers[0].securityContext.appArmorProfile | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `containers[0].securityContext.seLinuxOptions | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `containers[0].securityContext.seccompProfile | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `containers[0].securityContext.capabilities | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `containers[0].securityContext.readOnlyRootFilesystem | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `containers[0].securityContext.privileged | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `containers[0].securityContext.allowPrivilegeEscalation | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `containers[0].securityContext.procMount | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `containers[0].securityContext.runAsUser | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `containers[0].securityContext.runAsGroup | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
    ],
  ],
  [
    "host namespaces on a Windows pod",
    { os: { name: "windows" }, hostPID: true, hostIPC: true },
    {},
    [
      `hostPID | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
      `hostIPC | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`,
    ],
  ],
  [
    "hostUsers on a Windows pod",
    { os: { name: "windows" }, hostUsers: true },
    {},
    [`hostUsers | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`],
  ],
  [
    "runAsNonRoot on a Windows pod",
    { os: { name: "windows" } },
    { securityContext: { runAsNonRoot: true } },
    [],
  ],
  ["hostNetwork on a Windows pod", { os: { name: "windows" }, hostNetwork: true }, {}, []],
  [
    "empty supplementalGroups on a Windows pod",
    { os: { name: "windows" }, securityContext: { supplementalGroups: [] } },
    {},
    [`securityContext.supplementalGroups | FieldValueForbidden | Forbidden: ${NOT_WINDOWS}`],
  ],
  [
    "valid resource claims",
    {
      resourceClaims: [
        { name: "a", resourceClaimName: "rc" },
        { name: "b", resourceClaimTemplateName: "t" },
      ],
    },
    { resources: { claims: [{ name: "a" }, { name: "b", request: "r1" }] } },
    [],
  ],
  [
    "bad pod and container resource claims",
    {
      resourceClaims: [
        { name: "" },
        { name: "Bad_N", resourceClaimName: "x", resourceClaimTemplateName: "y" },
        { name: "a", resourceClaimName: "Bad_X" },
        { name: "a", resourceClaimTemplateName: "t" },
      ],
    },
    {
      resources: {
        claims: [{ name: "" }, { name: "zz" }, { name: "a" }, { name: "a" }, { name: "a", request: "Bad_R" }],
      },
    },
    [
      "resourceClaims[0].name | FieldValueRequired | Required value",
      'resourceClaims[0] | FieldValueInvalid | Invalid value: {"Name":"","ResourceClaimName":null,"ResourceClaimTemplateName":null}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`',
      `resourceClaims[1].name | FieldValueInvalid | Invalid value: "Bad_N": ${DNS_LABEL}`,
      'resourceClaims[1] | FieldValueInvalid | Invalid value: {"Name":"Bad_N","ResourceClaimName":"x","ResourceClaimTemplateName":"y"}: at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified',
      `resourceClaims[2].resourceClaimName | FieldValueInvalid | Invalid value: "Bad_X": ${DNS_SUBDOMAIN}`,
      'resourceClaims[3].name | FieldValueDuplicate | Duplicate value: "a"',
      "containers[0].resources.claims[0] | FieldValueRequired | Required value",
      'containers[0].resources.claims[1] | FieldValueNotFound | Not found: "zz": must be one of the names in pod.spec.resourceClaims: Bad_N, a',
      'containers[0].resources.claims[3] | FieldValueDuplicate | Duplicate value: "a"',
      'containers[0].resources.claims[4] | FieldValueDuplicate | Duplicate value: "a"',
    ],
  ],
  [
    "a container claim without pod claims",
    {},
    { resources: { claims: [{ name: "x" }] } },
    [
      'containers[0].resources.claims[0] | FieldValueNotFound | Not found: "x": must be one of the names in pod.spec.resourceClaims which is empty',
    ],
  ],
  [
    "a claim request that is no DNS label",
    { resourceClaims: [{ name: "a", resourceClaimName: "rc" }] },
    { resources: { claims: [{ name: "a", request: "Bad_R" }] } },
    [`containers[0].resources.claims[0].request | FieldValueInvalid | Invalid value: "Bad_R": ${DNS_LABEL}`],
  ],
  [
    "duplicate claim requests",
    { resourceClaims: [{ name: "a", resourceClaimName: "rc" }] },
    {
      resources: {
        claims: [
          { name: "a", request: "r1" },
          { name: "a", request: "r2" },
          { name: "a", request: "r1" },
          { name: "a" },
        ],
      },
    },
    [
      'containers[0].resources.claims[2] | FieldValueDuplicate | Duplicate value: "a/r1"',
      'containers[0].resources.claims[3] | FieldValueDuplicate | Duplicate value: "a"',
    ],
  ],
  [
    "a claim used whole and per request",
    { resourceClaims: [{ name: "a", resourceClaimName: "rc" }] },
    { resources: { claims: [{ name: "a" }, { name: "a", request: "r1" }] } },
    ['containers[0].resources.claims[1] | FieldValueDuplicate | Duplicate value: "a"'],
  ],
  [
    "valid resize policies",
    {},
    {
      resizePolicy: [
        { resourceName: "cpu", restartPolicy: "NotRequired" },
        { resourceName: "memory", restartPolicy: "RestartContainer" },
      ],
    },
    [],
  ],
  [
    "an unknown resize resource and policy",
    {},
    { resizePolicy: [{ resourceName: "gpu", restartPolicy: "Foo" }] },
    [
      'containers[0].resizePolicy | FieldValueNotSupported | Unsupported value: "gpu": supported values: "cpu", "memory"',
      'containers[0].resizePolicy | FieldValueNotSupported | Unsupported value: "Foo": supported values: "NotRequired", "RestartContainer"',
    ],
  ],
  [
    "a resize resource twice and an empty policy",
    {},
    {
      resizePolicy: [
        { resourceName: "cpu", restartPolicy: "NotRequired" },
        { resourceName: "cpu", restartPolicy: "NotRequired" },
        {},
      ],
    },
    [
      'containers[0].resizePolicy[1] | FieldValueDuplicate | Duplicate value: "cpu"',
      "containers[0].resizePolicy | FieldValueRequired | Required value",
    ],
  ],
  [
    "resize policies in a pod that never restarts",
    { restartPolicy: "Never" },
    {
      resizePolicy: [{ resourceName: "cpu", restartPolicy: "RestartContainer" }, { resourceName: "memory" }],
    },
    [
      "containers[0].resizePolicy | FieldValueInvalid | Invalid value: \"RestartContainer\": must be 'NotRequired' when pod `restartPolicy` is 'Never'",
      "containers[0].resizePolicy | FieldValueRequired | Required value",
      "containers[0].resizePolicy | FieldValueInvalid | Invalid value: \"\": must be 'NotRequired' when pod `restartPolicy` is 'Never'",
    ],
  ],
  [
    "a resize policy on an init container",
    {
      initContainers: [
        {
          name: "i",
          image: "busybox",
          resizePolicy: [{ resourceName: "cpu", restartPolicy: "NotRequired" }],
        },
      ],
    },
    {},
    [],
  ],
];

describe("OS rules, resource claims and resize policies", () => itAnswersPods(ROWS));
