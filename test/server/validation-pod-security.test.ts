/**
 * Issue 31: the pod-wide security rules beside the security contexts' own fields — Windows options
 * and HostProcess containers, supplemental groups and SELinux change policies, namespaced sysctls
 * under hostNetwork / hostIPC, user namespaces and the Unmasked proc mount — sent with dryRun=All
 * and answered as kube-apiserver 1.37 answers them (the `os` rules: validation-pod-os-claims.test.ts).
 */
import { describe } from "vitest";
import { pod, podValidationSuite } from "./pod-validation-suite.js";
import { DNS_SUBDOMAIN } from "./spec-validation-cases.js";

const { itAnswers } = podValidationSuite("val-podsec");

const c = (securityContext?: Record<string, unknown>, name = "c") => ({
  name,
  image: "busybox",
  ...(securityContext ? { securityContext } : {}),
});
const windows = (windowsOptions: Record<string, unknown>) => pod({ securityContext: { windowsOptions } });
const USER = "securityContext.windowsOptions.runAsUserName | FieldValueInvalid | Invalid value: ";

/** [what, pod spec fields, causes under spec]. */
const ROWS: [string, Record<string, unknown>, string[]][] = [
  [
    "valid Windows options",
    {
      os: { name: "windows" },
      securityContext: {
        windowsOptions: {
          gmsaCredentialSpecName: "gmsa-spec",
          gmsaCredentialSpec: "{}",
          runAsUserName: "NT AUTHORITY\\NETWORK SERVICE",
        },
      },
      containers: [c({ windowsOptions: { runAsUserName: "example.com\\ContainerUser" } })],
    },
    [],
  ],
  [
    "a gMSA spec name that is no subdomain and an empty spec",
    windows({ gmsaCredentialSpecName: "Bad_Name", gmsaCredentialSpec: "" }).spec,
    [
      `securityContext.windowsOptions.gmsaCredentialSpecName | FieldValueInvalid | Invalid value: "Bad_Name": ${DNS_SUBDOMAIN}`,
      'securityContext.windowsOptions.gmsaCredentialSpec | FieldValueInvalid | Invalid value: "": gmsaCredentialSpec cannot be an empty string',
    ],
  ],
  [
    "an empty runAsUserName",
    windows({ runAsUserName: "" }).spec,
    [`${USER}"": runAsUserName cannot be an empty string`],
  ],
  [
    "a runAsUserName with two backslashes",
    windows({ runAsUserName: "a\\b\\c" }).spec,
    [`${USER}"a\\\\b\\\\c": runAsUserName cannot contain more than one backslash`],
  ],
  [
    "a runAsUserName with a control character",
    windows({ runAsUserName: "user\tname" }).spec,
    [`${USER}"user\\tname": runAsUserName cannot contain control characters`],
  ],
  [
    "a runAsUserName with a bad domain and user",
    windows({ runAsUserName: ".dom:ain\\a@b" }).spec,
    [
      `${USER}".dom:ain\\\\a@b": runAsUserName's Domain doesn't match the NetBios nor the DNS format`,
      `${USER}".dom:ain\\\\a@b": runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`,
    ],
  ],
  [
    "a runAsUserName of dots, and one with an empty user",
    {
      securityContext: { windowsOptions: { runAsUserName: "..." } },
      containers: [c({ windowsOptions: { runAsUserName: "DOMAIN\\" } })],
    },
    [
      `${USER}"...": runAsUserName's User cannot contain only periods or spaces`,
      `containers[0].${USER}"DOMAIN\\\\": runAsUserName's User cannot be empty`,
    ],
  ],
  [
    "a runAsUserName whose user is too long",
    windows({ runAsUserName: "u".repeat(105) }).spec,
    [`${USER}"${"u".repeat(105)}": runAsUserName's User length must not be longer than 104 characters`],
  ],
  [
    "HostProcess containers mixed with others and no host network",
    {
      securityContext: { windowsOptions: { hostProcess: true } },
      containers: [c(), c({ windowsOptions: { hostProcess: false } }, "d")],
    },
    [
      "containers[1].securityContext.windowsOptions.hostProcess | FieldValueInvalid | Invalid value: false: pod hostProcess value must be identical if both are specified, was true",
      ' | FieldValueInvalid | Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
      "hostNetwork | FieldValueInvalid | Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers",
    ],
  ],
  [
    "HostProcess containers on the host network",
    { hostNetwork: true, containers: [c({ windowsOptions: { hostProcess: true } })] },
    [],
  ],
  [
    "valid supplemental groups and SELinux change policies",
    { securityContext: { supplementalGroupsPolicy: "Strict", seLinuxChangePolicy: "MountOption" } },
    [],
  ],
  [
    "unknown supplemental groups and SELinux change policies",
    { securityContext: { supplementalGroupsPolicy: "Union", seLinuxChangePolicy: "Never" } },
    [
      'securityContext.supplementalGroupsPolicy | FieldValueNotSupported | Unsupported value: "Union": supported values: "Merge", "Strict"',
      'securityContext.seLinuxChangePolicy | FieldValueNotSupported | Unsupported value: "Never": supported values: "MountOption", "Recursive"',
    ],
  ],
  [
    "namespaced sysctls on the host's network and IPC namespaces",
    {
      hostNetwork: true,
      hostIPC: true,
      securityContext: {
        sysctls: [
          { name: "net.ipv4.ip_local_port_range", value: "1024 65535" },
          { name: "kernel/shm_rmid_forced", value: "1" },
          { name: "fs.mqueue.msg_max", value: "10" },
          { name: "kernel.domainname", value: "x" },
        ],
      },
    },
    [
      `securityContext.sysctls[0].name | FieldValueInvalid | Invalid value: "net.ipv4.ip_local_port_range": may not be specified when 'hostNetwork' is true`,
      `securityContext.sysctls[1].name | FieldValueInvalid | Invalid value: "kernel/shm_rmid_forced": may not be specified when 'hostIPC' is true`,
      `securityContext.sysctls[2].name | FieldValueInvalid | Invalid value: "fs.mqueue.msg_max": may not be specified when 'hostIPC' is true`,
    ],
  ],
  [
    "an Unmasked proc mount without user namespaces",
    { initContainers: [c({ procMount: "Unmasked" }, "i")] },
    [
      'initContainers[0].securityContext.procMount | FieldValueInvalid | Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`',
    ],
  ],
  [
    "an Unmasked proc mount in a user namespace",
    { hostUsers: false, containers: [c({ procMount: "Unmasked" })] },
    [],
  ],
  [
    "host namespaces and block devices in a user namespace",
    {
      hostUsers: false,
      hostNetwork: true,
      hostPID: true,
      hostIPC: true,
      containers: [{ ...c(), volumeDevices: [{ name: "v", devicePath: "/dev/x" }] }],
      volumes: [{ name: "v", persistentVolumeClaim: { claimName: "claim" } }],
    },
    [
      "hostNetwork | FieldValueForbidden | Forbidden: when `hostUsers` is false",
      "HostPID | FieldValueForbidden | Forbidden: when `hostUsers` is false",
      "HostIPC | FieldValueForbidden | Forbidden: when `hostUsers` is false",
      "containers[0].volumeDevices | FieldValueForbidden | Forbidden: when `hostUsers` is false",
    ],
  ],
];

describe("pod-wide security rules", () => {
  for (const [what, spec, causes] of ROWS) itAnswers(`a pod with ${what}`, pod(spec), causes, "spec");
});
