/**
 * Issue 31: a pod's tolerations (and a RuntimeClass's `scheduling.tolerations`, which share their
 * rules), sent with dryRun=All and answered as kube-apiserver 1.37 answers them. The broader
 * comparison is `pnpm diff:server` (scripts/differential/specs/pod-bodies.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import {
  checkRow,
  DNS_LABEL,
  DNS_SUBDOMAIN,
  LABEL_VALUE,
  NAME_PART,
  type SpecRow,
} from "./spec-validation-cases.js";

let t: TestTarget;
const ns = uniqueName("val-podsched");
beforeAll(async () => {
  t = await startTarget();
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  // The ServiceAccount admission plugin refuses pods whose service account does not exist.
  await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, {
    body: { metadata: { name: "default" } },
  });
});
afterAll(async () => {
  await t?.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t?.close();
});

const RC = "/apis/node.k8s.io/v1/runtimeclasses";
const pod = (spec: Record<string, unknown>) => ({
  metadata: { name: "p" },
  spec: { containers: [{ name: "c", image: "busybox" }], ...spec },
});
const podRow = (name: string, tolerations: unknown[], causes: string[]): SpecRow => ({
  name: `a pod with ${name}`,
  path: `/api/v1/namespaces/${ns}/pods`,
  body: pod({ tolerations }),
  causes: causes.map((c) => `spec.tolerations[0].${c}`),
});
const rcRow = (name: string, tolerations: unknown[], causes: string[]): SpecRow => ({
  name: `a RuntimeClass with ${name}`,
  path: RC,
  body: { metadata: { name: "rc" }, handler: "runc", scheduling: { tolerations } },
  causes: causes.map((c) => `scheduling.tolerations[0].${c}`),
});

const EFFECTS = 'supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"';
const KEY_EMPTY =
  'operator | FieldValueInvalid | Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"';
/** [what, tolerations, causes under the toleration]: shared by pods and RuntimeClasses. */
const TOLERATIONS: [string, unknown[], string[]][] = [
  [
    "valid tolerations",
    [
      { key: "k", operator: "Equal", value: "v", effect: "NoSchedule" },
      { operator: "Exists" },
      { key: "example.com/k", operator: "Exists", effect: "NoExecute", tolerationSeconds: 30 },
      { key: "k", value: "v" },
    ],
    [],
  ],
  [
    "a key that is no label name",
    [{ key: "a b", operator: "Exists" }],
    [`key | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`],
  ],
  ["an empty key with operator Equal", [{ operator: "Equal" }], [KEY_EMPTY]],
  [
    "tolerationSeconds without NoExecute",
    [{ key: "k", operator: "Exists", effect: "NoSchedule", tolerationSeconds: 5 }],
    [
      "effect | FieldValueInvalid | Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
    ],
  ],
  [
    "a value that is no label value",
    [{ key: "k", value: "a b" }],
    [`operator | FieldValueInvalid | Invalid value: "a b": ${LABEL_VALUE}`],
  ],
  [
    "a value with operator Exists",
    [{ key: "k", operator: "Exists", value: "v" }],
    ["operator | FieldValueInvalid | Invalid value: \"v\": value must be empty when `operator` is 'Exists'"],
  ],
  [
    "an unknown operator",
    [{ key: "k", operator: "In" }],
    ['operator | FieldValueNotSupported | Unsupported value: "In": supported values: "Equal", "Exists"'],
  ],
  [
    "a comparison operator (feature off in 1.37)",
    [{ key: "k", operator: "Gt", value: "5" }],
    [
      'operator | FieldValueNotSupported | Unsupported value: "Gt": supported values: "Equal", "Exists", "Lt", "Gt"',
    ],
  ],
  [
    "an unknown effect",
    [{ key: "k", operator: "Exists", effect: "Never" }],
    [`effect | FieldValueNotSupported | Unsupported value: "Never": ${EFFECTS}`],
  ],
];

describe("tolerations", () => {
  for (const [what, tolerations, causes] of TOLERATIONS) {
    const p = podRow(what, tolerations, causes);
    it(`answers ${p.name} as kube-apiserver does`, () => checkRow(t, p));
    const r = rcRow(what, tolerations, causes);
    it(`answers ${r.name} as kube-apiserver does`, () => checkRow(t, r));
  }
});

const podPath = () => `/api/v1/namespaces/${ns}/pods`;
/** One pod row: `causes` are written relative to `under` (a cause starting " |" is on `under` itself). */
function itAnswers(name: string, body: Record<string, unknown>, causes: string[], under: string): void {
  const at = (c: string) => `${under}${c.startsWith(" |") ? "" : "."}${c}`;
  const row: SpecRow = { name, path: podPath(), body, causes: causes.map(at) };
  it(`answers ${name} as kube-apiserver does`, () => checkRow(t, row));
}
const ID_RANGE = "must be between 0 and 2147483647, inclusive";
const SYSCTL =
  "must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$";
/** [what, pod securityContext, causes under spec.securityContext]. */
const POD_CONTEXTS: [string, Record<string, unknown>, string[]][] = [
  [
    "a valid pod security context",
    {
      runAsUser: 1000,
      runAsGroup: 0,
      fsGroup: 2000,
      supplementalGroups: [1, 2],
      fsGroupChangePolicy: "OnRootMismatch",
      sysctls: [
        { name: "net.ipv4.ip_local_port_range", value: "1024 65535" },
        { name: "kernel/shm_rmid_forced", value: "1" },
      ],
      seccompProfile: { type: "Localhost", localhostProfile: "profiles/a.json" },
      appArmorProfile: { type: "RuntimeDefault" },
    },
    [],
  ],
  [
    "ids out of range",
    { runAsUser: -1, runAsGroup: 2147483648, fsGroup: -2, supplementalGroups: [5, -3] },
    [
      `fsGroup | FieldValueInvalid | Invalid value: -2: ${ID_RANGE}`,
      `runAsUser | FieldValueInvalid | Invalid value: -1: ${ID_RANGE}`,
      `runAsGroup | FieldValueInvalid | Invalid value: 2147483648: ${ID_RANGE}`,
      `supplementalGroups[1] | FieldValueInvalid | Invalid value: -3: ${ID_RANGE}`,
    ],
  ],
  [
    "bad sysctls",
    { sysctls: [{ name: "" }, { name: "Net.A" }, { name: "a.b" }, { name: "a.b" }] },
    [
      "sysctls[0].name | FieldValueRequired | Required value",
      `sysctls[1].name | FieldValueInvalid | Invalid value: "Net.A": ${SYSCTL}`,
      'sysctls[3].name | FieldValueDuplicate | Duplicate value: "a.b"',
    ],
  ],
  [
    "an unknown fsGroupChangePolicy",
    { fsGroupChangePolicy: "Sometimes" },
    [
      'fsGroupChangePolicy | FieldValueNotSupported | Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"',
    ],
  ],
  [
    "a seccomp profile without a type",
    { seccompProfile: {} },
    [
      "seccompProfile.type | FieldValueRequired | Required value: type is required when seccompProfile is set",
    ],
  ],
  [
    "a Localhost seccomp profile without a file",
    { seccompProfile: { type: "Localhost" } },
    [
      "seccompProfile.localhostProfile | FieldValueRequired | Required value: must be set when seccomp type is Localhost",
    ],
  ],
  [
    "an unknown seccomp type",
    { seccompProfile: { type: "Strict" } },
    [
      'seccompProfile.type | FieldValueNotSupported | Unsupported value: "Strict": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
    ],
  ],
  [
    "an unknown AppArmor type",
    { appArmorProfile: { type: "Strict" } },
    [
      'appArmorProfile.type | FieldValueNotSupported | Unsupported value: "Strict": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
    ],
  ],
  [
    "a padded AppArmor profile",
    { appArmorProfile: { type: "Localhost", localhostProfile: " p " } },
    [
      'appArmorProfile.localhostProfile | FieldValueInvalid | Invalid value: " p ": must not be padded with whitespace',
    ],
  ],
  [
    "an AppArmor profile name with type Unconfined",
    { appArmorProfile: { type: "Unconfined", localhostProfile: "p" } },
    [
      'appArmorProfile.localhostProfile | FieldValueInvalid | Invalid value: "p": can only be set when AppArmor type is Localhost',
    ],
  ],
];

describe("pod security contexts", () => {
  for (const [what, securityContext, causes] of POD_CONTEXTS)
    itAnswers(`a pod with ${what}`, pod({ securityContext }), causes, "spec.securityContext");
  // Both servers accept the pair (kube-apiserver 1.37 no longer refuses it at validation).
  it("accepts shareProcessNamespace together with hostPID", () =>
    checkRow(t, {
      name: "shareProcessNamespace with hostPID",
      path: podPath(),
      body: pod({ hostPID: true, securityContext: { shareProcessNamespace: true } }),
      causes: [],
    }));
});

/** [what, container securityContext, causes under spec.containers[0].securityContext]. */
const CONTAINER_CONTEXTS: [string, Record<string, unknown>, string[]][] = [
  [
    "a valid container security context",
    {
      runAsUser: 0,
      runAsNonRoot: false,
      allowPrivilegeEscalation: false,
      capabilities: { add: ["NET_ADMIN"], drop: ["ALL"] },
      procMount: "Default",
      seccompProfile: { type: "RuntimeDefault" },
      appArmorProfile: { type: "Localhost", localhostProfile: "k8s-apparmor" },
    },
    [],
  ],
  [
    "a negative runAsUser",
    { runAsUser: -5 },
    [`runAsUser | FieldValueInvalid | Invalid value: -5: ${ID_RANGE}`],
  ],
  [
    "an unknown procMount",
    { procMount: "Masked" },
    [
      'procMount | FieldValueNotSupported | Unsupported value: "Masked": supported values: "Default", "Unmasked"',
    ],
  ],
  [
    "a seccomp profile name with type RuntimeDefault",
    { seccompProfile: { type: "RuntimeDefault", localhostProfile: "p.json" } },
    [
      'seccompProfile.localhostProfile | FieldValueInvalid | Invalid value: {"Type":"RuntimeDefault","LocalhostProfile":"p.json"}: can only be set when seccomp type is Localhost',
    ],
  ],
  [
    "CAP_SYS_ADMIN without privilege escalation",
    { allowPrivilegeEscalation: false, capabilities: { add: ["CAP_SYS_ADMIN"] } },
    [
      ' | FieldValueInvalid | Invalid value: {"Capabilities":{"Add":["CAP_SYS_ADMIN"],"Drop":null},"Privileged":null,"SELinuxOptions":null,"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,"ReadOnlyRootFilesystem":null,"AllowPrivilegeEscalation":false,"ProcMount":null,"SeccompProfile":null,"AppArmorProfile":null}: cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
    ],
  ],
  [
    "privileged without privilege escalation",
    { privileged: true, allowPrivilegeEscalation: false, seLinuxOptions: { level: "s0" } },
    [
      ' | FieldValueInvalid | Invalid value: {"Capabilities":null,"Privileged":true,"SELinuxOptions":{"User":"","Role":"","Type":"","Level":"s0"},"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,"ReadOnlyRootFilesystem":null,"AllowPrivilegeEscalation":false,"ProcMount":null,"SeccompProfile":null,"AppArmorProfile":null}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
      // kube-apiserver runs with its default --allow-privileged=false.
      "privileged | FieldValueForbidden | Forbidden: disallowed by cluster policy",
    ],
  ],
];

describe("container security contexts", () => {
  for (const [what, securityContext, causes] of CONTAINER_CONTEXTS) {
    const body = {
      metadata: { name: "p" },
      spec: { containers: [{ name: "c", image: "busybox", securityContext }] },
    };
    itAnswers(`a container with ${what}`, body, causes, "spec.containers[0].securityContext");
  }
});

const required = (nodeSelectorTerms: unknown[]) => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } },
});
const term = (extra: Record<string, unknown> = {}) => ({ topologyKey: "kubernetes.io/hostname", ...extra });
const REQ = "nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
/** [what, affinity, causes under spec.affinity]. */
const AFFINITIES: [string, Record<string, unknown>, string[]][] = [
  [
    "a valid affinity",
    {
      ...required([
        {
          matchExpressions: [
            { key: "zone", operator: "In", values: ["a", "b"] },
            { key: "gpu", operator: "Exists" },
            { key: "cores", operator: "Gt", values: ["4"] },
          ],
          matchFields: [{ key: "metadata.name", operator: "NotIn", values: ["node-1"] }],
        },
      ]),
      podAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 100,
            podAffinityTerm: term({ labelSelector: { matchLabels: { app: "x" } }, namespaces: ["ns-1"] }),
          },
        ],
      },
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [term({ namespaceSelector: {} })],
      },
    },
    [],
  ],
  [
    "no node selector terms",
    required([]),
    [`${REQ} | FieldValueRequired | Required value: must have at least one node selector term`],
  ],
  [
    "bad node selector requirements",
    required([
      {
        matchExpressions: [
          { key: "zone", operator: "In" },
          { key: "gpu", operator: "Exists", values: ["x"] },
          { key: "cores", operator: "Lt", values: ["1", "2"] },
          { key: "a b", operator: "Near" },
        ],
      },
    ]),
    [
      `${REQ}[0].matchExpressions[0].values | FieldValueRequired | Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
      `${REQ}[0].matchExpressions[1].values | FieldValueForbidden | Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
      `${REQ}[0].matchExpressions[2].values | FieldValueRequired | Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`,
      `${REQ}[0].matchExpressions[3].operator | FieldValueInvalid | Invalid value: "Near": not a valid selector operator`,
      `${REQ}[0].matchExpressions[3].key | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
    ],
  ],
  [
    "bad node field requirements",
    required([
      {
        matchFields: [
          { key: "metadata.name", operator: "In", values: ["a", "b"] },
          { key: "metadata.labels", operator: "Exists" },
          { key: "metadata.name", operator: "In", values: ["Node_1"] },
        ],
      },
    ]),
    [
      `${REQ}[0].matchFields[0].values | FieldValueRequired | Required value: must be only one value when \`operator\` is 'In' or 'NotIn' for node field selector`,
      `${REQ}[0].matchFields[1].operator | FieldValueInvalid | Invalid value: "Exists": not a valid selector operator`,
      `${REQ}[0].matchFields[1].key | FieldValueInvalid | Invalid value: "metadata.labels": not a valid field selector key`,
      `${REQ}[0].matchFields[2].values[0] | FieldValueInvalid | Invalid value: "Node_1": ${DNS_SUBDOMAIN}`,
    ],
  ],
  [
    "preference weights out of range",
    {
      nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: {} }] },
      podAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 101, podAffinityTerm: term() }],
      },
    },
    [
      "nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight | FieldValueInvalid | Invalid value: 0: must be in the range 1-100",
      "podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight | FieldValueInvalid | Invalid value: 101: must be in the range 1-100",
    ],
  ],
  [
    "bad pod affinity terms",
    {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          {
            topologyKey: "",
            namespaces: ["Bad_NS"],
            labelSelector: { matchExpressions: [{ key: "app", operator: "In" }] },
          },
          term({ topologyKey: "a b" }),
        ],
      },
    },
    [
      "podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values | FieldValueRequired | Required value: must be specified when `operator` is 'In' or 'NotIn'",
      `podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace | FieldValueInvalid | Invalid value: "Bad_NS": ${DNS_LABEL}`,
      "podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey | FieldValueRequired | Required value: can not be empty",
      'podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey | FieldValueInvalid | Invalid value: "": name part must be non-empty',
      `podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey | FieldValueInvalid | Invalid value: "": ${NAME_PART}`,
      `podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].topologyKey | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
    ],
  ],
];

describe("affinity", () => {
  for (const [what, affinity, causes] of AFFINITIES)
    itAnswers(`a pod with ${what}`, pod({ affinity }), causes, "spec.affinity");
});
