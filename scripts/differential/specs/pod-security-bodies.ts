/**
 * Pod spec variants for the pod-wide security rules (Windows options and HostProcess pods,
 * supplemental groups and SELinux change policies, host-namespace sysctls, user namespaces and
 * Unmasked proc mounts, the pod's os) and for matchLabelKeys / mismatchLabelKeys;
 * podSchedulingVariants adds them. Seeded: names, keys and values vary from run to run.
 */
import { type Body, pick, type Random, word } from "./types.js";

const c = (securityContext?: Body, name = "c"): Body => ({
  name,
  image: "busybox",
  ...(securityContext ? { securityContext } : {}),
});
const onePod = (spec: Body): Body => ({ containers: [c()], ...spec });

function windowsVariants(rnd: Random): [string, Body][] {
  const user = pick(rnd, [
    "",
    "a\\b\\c",
    "x\ty",
    ".dom:ain\\u",
    "DOMAIN\\",
    "...",
    "a@b",
    "u".repeat(105),
    "ok",
  ]);
  const gmsaName = pick(rnd, [word(rnd), "Bad_Name", "a..b"]);
  const hostProcess = pick(rnd, [true, false]);
  return [
    [
      "pod-valid-windows-options",
      onePod({
        os: { name: "windows" },
        securityContext: { windowsOptions: { runAsUserName: `${word(rnd)}\\${word(rnd)}` } },
      }),
    ],
    ["pod-windows-user", onePod({ securityContext: { windowsOptions: { runAsUserName: user } } })],
    [
      "pod-windows-gmsa",
      onePod({
        securityContext: {
          windowsOptions: { gmsaCredentialSpecName: gmsaName, gmsaCredentialSpec: pick(rnd, ["", "{}"]) },
        },
      }),
    ],
    [
      "pod-windows-host-process",
      {
        hostNetwork: pick(rnd, [true, false]),
        securityContext: { windowsOptions: { hostProcess } },
        containers: [c(), c({ windowsOptions: { hostProcess: pick(rnd, [true, false]) } }, "d")],
      },
    ],
  ];
}

function linuxVariants(rnd: Random): [string, Body][] {
  const hostUsers = pick(rnd, [true, false, undefined]);
  return [
    [
      "pod-security-policies",
      onePod({
        securityContext: {
          supplementalGroupsPolicy: pick(rnd, ["Merge", "Strict", "Union"]),
          seLinuxChangePolicy: pick(rnd, ["Recursive", "MountOption", "Never"]),
        },
      }),
    ],
    [
      "pod-security-host-sysctls",
      onePod({
        hostNetwork: pick(rnd, [true, false]),
        hostIPC: pick(rnd, [true, false]),
        securityContext: {
          sysctls: [
            { name: pick(rnd, ["net.ipv4.ip_forward", "net/ipv4/ip_forward"]), value: "1" },
            { name: pick(rnd, ["kernel.shm_rmid_forced", "fs.mqueue.msg_max", "kernel.msgmax"]), value: "1" },
          ],
        },
      }),
    ],
    [
      "pod-security-user-namespace",
      {
        ...(hostUsers === undefined ? {} : { hostUsers }),
        [pick(rnd, ["hostNetwork", "hostPID", "hostIPC"])]: true,
        containers: [c({ procMount: pick(rnd, ["Unmasked", "Default"]) })],
      },
    ],
    [
      "pod-os",
      {
        os: { name: pick(rnd, ["", "linux", "windows", "plan9"]) },
        hostPID: pick(rnd, [true, false]),
        securityContext: {
          windowsOptions: { runAsUserName: "u" },
          [pick(rnd, ["runAsUser", "fsGroup", "runAsGroup"])]: 1,
        },
        containers: [
          c({ [pick(rnd, ["privileged", "readOnlyRootFilesystem", "allowPrivilegeEscalation"])]: false }),
        ],
      },
    ],
  ];
}

function labelKeyVariants(rnd: Random): [string, Body][] {
  const key = pick(rnd, [word(rnd), "app", "a b", "-x", "example.com/k"]);
  const other = pick(rnd, [key, word(rnd)]);
  const selector = pick(rnd, [undefined, { matchLabels: { app: word(rnd) } }]);
  const term = {
    topologyKey: "zone",
    labelSelector: selector,
    matchLabelKeys: [key],
    mismatchLabelKeys: [other],
  };
  return [
    [
      "pod-affinity-label-keys",
      onePod({
        affinity: {
          [pick(rnd, ["podAffinity", "podAntiAffinity"])]: {
            requiredDuringSchedulingIgnoredDuringExecution: [term],
          },
        },
      }),
    ],
    [
      "pod-spread-label-keys",
      onePod({
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: "zone",
            whenUnsatisfiable: "DoNotSchedule",
            labelSelector: selector,
            matchLabelKeys: [key, other],
          },
        ],
      }),
    ],
  ];
}

export function podSecurityVariants(rnd: Random): [string, Body][] {
  return [...windowsVariants(rnd), ...linuxVariants(rnd), ...labelKeyVariants(rnd)];
}
