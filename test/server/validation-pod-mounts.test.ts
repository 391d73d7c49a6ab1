/**
 * Issue 31: a container's volume mounts (sub-paths, propagation, recursive read-only) and volume
 * devices.
 * Each row is sent with dryRun=All and answered as kube-apiserver 1.37 answers it; the broader
 * comparison is `pnpm diff:server` (scripts/differential/specs/pod-volume-bodies.ts).
 */
import { describe } from "vitest";
import { type PodRow, podValidationSuite } from "./pod-validation-suite.js";

const { itAnswersPods } = podValidationSuite("val-podmnt");

const ROWS: PodRow[] = [
  [
    "bad sub-paths",
    { volumes: [{ name: "v", emptyDir: {} }] },
    {
      volumeMounts: [
        { name: "v", mountPath: "/a", subPath: "/abs" },
        { name: "v", mountPath: "/b", subPath: "x/../y" },
        { name: "v", mountPath: "/c", subPath: "x", subPathExpr: "$(A)" },
        { name: "v", mountPath: "/d", subPathExpr: "/e/.." },
        { name: "v", mountPath: "rel" },
      ],
    },
    [
      'containers[0].volumeMounts.subPath | FieldValueInvalid | Invalid value: "/abs": must be a relative path',
      "containers[0].volumeMounts.subPath | FieldValueInvalid | Invalid value: \"x/../y\": must not contain '..'",
      'containers[0].volumeMounts[2].subPathExpr | FieldValueInvalid | Invalid value: "$(A)": subPathExpr and subPath are mutually exclusive',
      'containers[0].volumeMounts.subPathExpr | FieldValueInvalid | Invalid value: "/e/..": must be a relative path',
      "containers[0].volumeMounts.subPathExpr | FieldValueInvalid | Invalid value: \"/e/..\": must not contain '..'",
    ],
  ],
  [
    "recursiveReadOnly rules",
    { volumes: [{ name: "v", emptyDir: {} }] },
    {
      volumeMounts: [
        { name: "v", mountPath: "/a", recursiveReadOnly: "Enabled" },
        {
          name: "v",
          mountPath: "/b",
          readOnly: true,
          recursiveReadOnly: "IfPossible",
          mountPropagation: "HostToContainer",
        },
        { name: "v", mountPath: "/c", recursiveReadOnly: "Foo" },
        { name: "v", mountPath: "/d", readOnly: true, recursiveReadOnly: "Enabled" },
        { name: "v", mountPath: "/e", recursiveReadOnly: "Disabled" },
      ],
    },
    [
      "containers[0].volumeMounts.recursiveReadOnly | FieldValueForbidden | Forbidden: may only be specified when readOnly is true",
      "containers[0].volumeMounts.recursiveReadOnly | FieldValueForbidden | Forbidden: may only be specified when mountPropagation is None or not specified",
      'containers[0].volumeMounts.recursiveReadOnly | FieldValueNotSupported | Unsupported value: "Foo": supported values: "Disabled", "Enabled", "IfPossible"',
    ],
  ],
  [
    "mount propagation rules",
    { volumes: [{ name: "v", emptyDir: {} }] },
    {
      volumeMounts: [
        { name: "v", mountPath: "/a", mountPropagation: "Foo" },
        { name: "v", mountPath: "/b", mountPropagation: "Bidirectional" },
      ],
    },
    [
      'containers[0].volumeMounts.mountPropagation | FieldValueNotSupported | Unsupported value: "Foo": supported values: "Bidirectional", "HostToContainer", "None"',
      "containers[0].volumeMounts.mountPropagation | FieldValueForbidden | Forbidden: Bidirectional mount propagation is available only to privileged containers",
    ],
  ],
  [
    "Bidirectional propagation in a privileged container",
    { volumes: [{ name: "v", emptyDir: {} }] },
    {
      securityContext: { privileged: true },
      volumeMounts: [{ name: "v", mountPath: "/b", mountPropagation: "Bidirectional" }],
    },
    [],
  ],
  [
    "bad volume devices",
    {
      volumes: [
        { name: "v", emptyDir: {} },
        { name: "p", persistentVolumeClaim: { claimName: "c" } },
        { name: "q", persistentVolumeClaim: { claimName: "d" } },
      ],
    },
    {
      volumeMounts: [{ name: "q", mountPath: "/m" }],
      volumeDevices: [
        { name: "v", devicePath: "/d1" },
        { name: "p", devicePath: "/d2" },
        { name: "p", devicePath: "/d2" },
        { name: "zz" },
        { name: "", devicePath: "/x/../y" },
        { name: "q", devicePath: "/m" },
      ],
    },
    [
      'containers[0].volumeMounts[0].name | FieldValueInvalid | Invalid value: "q": must not already exist in volumeDevices',
      'containers[0].volumeMounts[0].mountPath | FieldValueInvalid | Invalid value: "/m": must not already exist as a path in volumeDevices',
      'containers[0].volumeDevices[0].name | FieldValueInvalid | Invalid value: "v": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
      'containers[0].volumeDevices[2].name | FieldValueInvalid | Invalid value: "p": must be unique',
      'containers[0].volumeDevices[2].devicePath | FieldValueInvalid | Invalid value: "/d2": must be unique',
      'containers[0].volumeDevices[3].name | FieldValueNotFound | Not found: "zz"',
      "containers[0].volumeDevices[3].devicePath | FieldValueRequired | Required value",
      "containers[0].volumeDevices[4].name | FieldValueRequired | Required value",
      'containers[0].volumeDevices[4].name | FieldValueNotFound | Not found: ""',
      "containers[0].volumeDevices[4].devicePath | FieldValueInvalid | Invalid value: \"/x/../y\": can not contain backsteps ('..')",
      'containers[0].volumeDevices[5].name | FieldValueInvalid | Invalid value: "q": must not already exist in volumeMounts',
      'containers[0].volumeDevices[5].devicePath | FieldValueInvalid | Invalid value: "/m": must not already exist as a path in volumeMounts',
    ],
  ],
  [
    "a valid volume device",
    { volumes: [{ name: "p", persistentVolumeClaim: { claimName: "c" } }] },
    { volumeDevices: [{ name: "p", devicePath: "/dev/x" }] },
    [],
  ],
];

describe("volume mounts and devices", () => itAnswersPods(ROWS));
