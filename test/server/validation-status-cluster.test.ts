/**
 * /status writes of PersistentVolumes, VolumeAttachments, FlowSchemas and PriorityLevelConfigurations
 * are held to kube-apiserver 1.37's status rules: a volume's status is not checked at all, an
 * attachment's error codes are 32-bit and non-negative, flow-control conditions have distinct types.
 */
import { describeStatusRows, type StatusRow } from "./status-validation-cases.js";

const ROWS: StatusRow[] = [
  {
    name: "any phase of a volume is taken",
    kind: "pv",
    status: { phase: "Bogus", message: "m", reason: "r" },
    causes: [],
  },
  {
    name: "a negative attach error code",
    kind: "volumeattachment",
    status: { attached: true, attachError: { message: "m", errorCode: -5 }, detachError: { message: "m" } },
    causes: [
      "status.attachError.errorCode | FieldValueInvalid | Invalid value: -5: must be between 0 and 2147483647, inclusive",
    ],
  },
  {
    name: "flow schema conditions: a type each, no type twice (status values are free)",
    kind: "flowschema",
    status: {
      conditions: [
        { type: "", status: "Maybe" },
        { type: "Dangling", status: "True" },
        { type: "Dangling", status: "True" },
      ],
    },
    causes: [
      "status.conditions[0].type | FieldValueRequired | Required value",
      'status.conditions[2].type | FieldValueDuplicate | Duplicate value: "Dangling"',
    ],
  },
  {
    name: "priority level conditions: a type each, no type twice",
    kind: "prioritylevel",
    status: {
      conditions: [
        { type: "", status: "Maybe" },
        { type: "X", status: "True" },
        { type: "X", status: "True" },
      ],
    },
    causes: [
      "status.conditions[0].type | FieldValueRequired | Required value",
      'status.conditions[2].type | FieldValueDuplicate | Duplicate value: "X"',
    ],
  },
];

describeStatusRows("Cluster kinds' status validation (dryRun=All /status writes)", ROWS);
