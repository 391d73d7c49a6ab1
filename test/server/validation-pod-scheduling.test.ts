/**
 * Issue 31: a pod's tolerations (and a RuntimeClass's `scheduling.tolerations`, which share their
 * rules) and pod and container security contexts, sent with dryRun=All and answered as
 * kube-apiserver 1.37 answers them (affinity and topology spread: validation-pod-affinity.test.ts).
 * The broader comparison is `pnpm diff:server` (scripts/differential/specs/pod-bodies.ts).
 */
import { describe, it } from "vitest";
import { pod, podValidationSuite } from "./pod-validation-suite.js";
import { checkRow, LABEL_VALUE, NAME_PART, type SpecRow } from "./spec-validation-cases.js";

const { target, podPath, itAnswers } = podValidationSuite("val-podsched");

const RC = "/apis/node.k8s.io/v1/runtimeclasses";
const podRow = (name: string, tolerations: unknown[], causes: string[]): SpecRow => ({
  name: `a pod with ${name}`,
  path: podPath(),
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
    it(`answers ${p.name} as kube-apiserver does`, () => checkRow(target(), p));
    const r = rcRow(what, tolerations, causes);
    it(`answers ${r.name} as kube-apiserver does`, () => checkRow(target(), r));
  }
});

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
    checkRow(target(), {
      name: "shareProcessNamespace with hostPID",
      path: podPath(),
      body: pod({ hostPID: true, securityContext: { shareProcessNamespace: true } }),
      causes: [],
    }));
});

describe("privileged containers", () => {
  // Both servers allow them: the real harness runs kube-apiserver with --allow-privileged=true, as
  // kubeadm and kind do.
  it("accepts a privileged container", () =>
    checkRow(target(), {
      name: "privileged container",
      path: podPath(),
      body: pod({ containers: [{ name: "c", image: "busybox", securityContext: { privileged: true } }] }),
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
