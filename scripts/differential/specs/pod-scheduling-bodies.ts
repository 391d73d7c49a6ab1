/**
 * Pod spec variants for tolerations, security contexts, affinity and topology spread (podSpecVariants adds them),
 * and the toleration lists RuntimeClasses share with pods. Seeded: keys, values, ids and weights
 * vary from run to run.
 */
import { podSecurityVariants } from "./pod-security-bodies.js";
import { type Body, int, pick, type Random, word } from "./types.js";

const c = (extra: Body = {}): Body => ({ name: "c", image: "busybox", ...extra });

/** [variant, tolerations]: valid first. */
export function tolerationVariants(rnd: Random): [string, Body[]][] {
  const key = pick(rnd, ["k", "example.com/k", `${word(rnd)}.io/x`]);
  return [
    [
      "tolerations-valid",
      [{ key, operator: "Equal", value: word(rnd), effect: "NoSchedule" }, { operator: "Exists" }],
    ],
    [
      "tolerations-valid-seconds",
      [{ key, operator: "Exists", effect: "NoExecute", tolerationSeconds: int(rnd, 0, 900) }],
    ],
    ["tolerations-key-invalid", [{ key: pick(rnd, ["a b", "-k", "a/b/c", "UP/x"]), operator: "Exists" }]],
    ["tolerations-key-empty-equal", [{ operator: pick(rnd, ["Equal", ""]), value: "" }]],
    [
      "tolerations-seconds-effect",
      [{ key, operator: "Exists", effect: pick(rnd, ["", "NoSchedule"]), tolerationSeconds: 5 }],
    ],
    ["tolerations-value-invalid", [{ key, value: pick(rnd, ["a b", "-v", "x".repeat(64)]) }]],
    ["tolerations-exists-value", [{ key, operator: "Exists", value: word(rnd) }]],
    ["tolerations-operator", [{ key, operator: pick(rnd, ["In", "Gt", "equal"]) }]],
    ["tolerations-effect", [{ key, operator: "Exists", effect: pick(rnd, ["Never", "noschedule"]) }]],
  ];
}

function securityVariants(rnd: Random): [string, Body][] {
  const id = int(rnd, 0, 65535);
  const bad = pick(rnd, [-1, -id - 1, 2147483648]);
  return [
    [
      "pod-valid-security",
      {
        securityContext: { runAsUser: id, fsGroup: id, supplementalGroups: [id] },
        containers: [
          c({
            securityContext: {
              runAsNonRoot: true,
              allowPrivilegeEscalation: false,
              capabilities: { drop: ["ALL"] },
              seccompProfile: { type: "RuntimeDefault" },
            },
          }),
        ],
      },
    ],
    [
      "pod-security-ids",
      {
        securityContext: {
          [pick(rnd, ["runAsUser", "runAsGroup", "fsGroup"])]: bad,
          supplementalGroups: [id, bad],
        },
        containers: [c()],
      },
    ],
    [
      "pod-security-sysctls",
      {
        securityContext: {
          sysctls: [
            { name: pick(rnd, ["", "Net.A", "a..b", "kernel.shm_rmid_forced"]) },
            { name: "kernel.shm_rmid_forced" },
          ],
        },
        containers: [c()],
      },
    ],
    [
      "pod-security-fsgroup-policy",
      { securityContext: { fsGroupChangePolicy: word(rnd) }, containers: [c()] },
    ],
    [
      "pod-security-seccomp",
      {
        securityContext: {
          seccompProfile: pick(rnd, [
            {},
            { type: "Localhost" },
            { type: "Strict" },
            { type: "Unconfined", localhostProfile: "p" },
          ]),
        },
        containers: [c()],
      },
    ],
    [
      "pod-security-apparmor",
      {
        securityContext: {
          appArmorProfile: pick(rnd, [
            {},
            { type: "Localhost" },
            { type: "Localhost", localhostProfile: " p" },
            { type: "Other" },
            { type: "RuntimeDefault", localhostProfile: "p" },
          ]),
        },
        containers: [c()],
      },
    ],
    [
      "pod-container-security-ids",
      { containers: [c({ securityContext: { [pick(rnd, ["runAsUser", "runAsGroup"])]: bad } })] },
    ],
    ["pod-container-privileged", { containers: [c({ securityContext: { privileged: true } })] }],
    [
      "pod-container-escalation",
      {
        containers: [
          c({
            securityContext: {
              allowPrivilegeEscalation: false,
              capabilities: { add: ["CAP_SYS_ADMIN"] },
              seccompProfile: { type: "RuntimeDefault", localhostProfile: "x" },
            },
          }),
        ],
      },
    ],
    [
      "pod-container-proc-mount",
      { containers: [c({ securityContext: { procMount: pick(rnd, ["Masked", "", "default"]) } })] },
    ],
  ];
}

function affinityVariants(rnd: Random): [string, Body][] {
  const req = (terms: Body[]) => ({
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
  });
  const op = pick(rnd, ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Near"]);
  const values = pick(rnd, [[], ["1"], ["1", "2"]]);
  const weight = pick(rnd, [0, 1, 50, 100, 101, -3]);
  const topologyKey = pick(rnd, ["kubernetes.io/hostname", "", "a b", "zone"]);
  const selector = pick(rnd, [
    { matchLabels: { app: word(rnd) } },
    { matchExpressions: [{ key: "app", operator: "In" }] },
    {},
  ]);
  return [
    [
      "pod-valid-affinity",
      {
        affinity: req([{ matchExpressions: [{ key: "zone", operator: "In", values: [word(rnd)] }] }]),
        containers: [c()],
      },
    ],
    ["pod-affinity-no-terms", { affinity: req([]), containers: [c()] }],
    [
      "pod-affinity-node-requirement",
      {
        affinity: req([{ matchExpressions: [{ key: pick(rnd, ["zone", "a b"]), operator: op, values }] }]),
        containers: [c()],
      },
    ],
    [
      "pod-affinity-node-field",
      {
        affinity: req([
          {
            matchFields: [
              {
                key: pick(rnd, ["metadata.name", "spec.x"]),
                operator: op,
                values: pick(rnd, [["n"], ["N_1"], []]),
              },
            ],
          },
        ]),
        containers: [c()],
      },
    ],
    [
      "pod-affinity-node-weight",
      {
        affinity: {
          nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight, preference: {} }] },
        },
        containers: [c()],
      },
    ],
    [
      "pod-affinity-pod-term",
      {
        affinity: {
          [pick(rnd, ["podAffinity", "podAntiAffinity"])]: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { topologyKey, labelSelector: selector, namespaces: [pick(rnd, ["ns", "Bad_NS"])] },
            ],
          },
        },
        containers: [c()],
      },
    ],
    [
      "pod-affinity-pod-weight",
      {
        affinity: {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight, podAffinityTerm: { topologyKey, namespaceSelector: selector } },
            ],
          },
        },
        containers: [c()],
      },
    ],
  ];
}

function spreadVariants(rnd: Random): [string, Body][] {
  const base = { maxSkew: 1, topologyKey: "zone", whenUnsatisfiable: "DoNotSchedule" };
  const one = (extra: Body): Body => ({
    topologySpreadConstraints: [{ ...base, ...extra }],
    containers: [c()],
  });
  return [
    [
      "pod-valid-spread",
      one({ minDomains: int(rnd, 1, 5), labelSelector: { matchLabels: { app: word(rnd) } } }),
    ],
    ["pod-spread-skew", one({ maxSkew: int(rnd, -3, 0) })],
    ["pod-spread-key", one({ topologyKey: "" })],
    ["pod-spread-action", one({ whenUnsatisfiable: pick(rnd, ["", "Never", "scheduleAnyway"]) })],
    [
      "pod-spread-repeated",
      { topologySpreadConstraints: [base, { ...base, maxSkew: 2 }], containers: [c()] },
    ],
    [
      "pod-spread-min-domains",
      one({ minDomains: int(rnd, -1, 3), whenUnsatisfiable: pick(rnd, ["DoNotSchedule", "ScheduleAnyway"]) }),
    ],
    [
      "pod-spread-policies",
      one({ [pick(rnd, ["nodeAffinityPolicy", "nodeTaintsPolicy"])]: pick(rnd, ["", "Always"]) }),
    ],
    [
      "pod-spread-selector",
      one({ labelSelector: { matchExpressions: [{ key: "app", operator: "Exists", values: ["x"] }] } }),
    ],
  ];
}

export function podSchedulingVariants(rnd: Random): [string, Body][] {
  return [
    ...tolerationVariants(rnd).map(([v, tolerations]): [string, Body] => [
      `pod-${v}`,
      { tolerations, containers: [c()] },
    ]),
    ...securityVariants(rnd),
    ...affinityVariants(rnd),
    ...spreadVariants(rnd),
    ...podSecurityVariants(rnd),
  ];
}
