/**
 * /status writes of PersistentVolumes, VolumeAttachments, FlowSchemas and PriorityLevelConfigurations
 * are held to kube-apiserver 1.37's status rules: a volume's status is not checked at all, an
 * attachment's error codes are 32-bit and non-negative, flow-control conditions have distinct types.
 */
import { describeStatusRows, type StatusRow } from "./status-validation-cases.js";

/** Flow-control conditions: a type each, no type twice; their status values are free. */
function conditionRow(kind: "flowschema" | "prioritylevel", type: string): StatusRow {
  const cond = { type, status: "True" };
  return {
    name: `${kind} conditions: a type each, no type twice`,
    kind,
    status: { conditions: [{ type: "", status: "Maybe" }, cond, cond, { type: "", status: "True" }] },
    causes: [
      "status.conditions[0].type | FieldValueRequired | Required value",
      'status.conditions[3].type | FieldValueDuplicate | Duplicate value: ""',
      "status.conditions[3].type | FieldValueRequired | Required value",
      `status.conditions[2].type | FieldValueDuplicate | Duplicate value: "${type}"`,
    ],
  };
}

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
  conditionRow("flowschema", "Dangling"),
  conditionRow("prioritylevel", "X"),
];

describeStatusRows("Cluster kinds' status validation (dryRun=All /status writes)", ROWS);
