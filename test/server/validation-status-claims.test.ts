/**
 * PersistentVolumeClaim /status writes are validated as kube-apiserver 1.37 validates them
 * (ValidatePersistentVolumeClaimStatusUpdate): capacities and allocated resources are valid
 * quantities of storage, and the resize statuses are known ones. An unknown resize status is
 * reported with the resource's name as its value, as upstream does.
 */
import { describeStatusRows, type StatusRow } from "./status-validation-cases.js";

const RESIZE_STATUSES =
  '"ControllerResizeInProgress", "ControllerResizeInfeasible", "NodeResizeInProgress", "NodeResizeInfeasible", "NodeResizePending"';

const ROWS: StatusRow[] = [
  {
    name: "a bound claim being resized",
    kind: "pvc",
    status: {
      phase: "Bound",
      capacity: { storage: "1Gi" },
      allocatedResources: { storage: "2Gi" },
      allocatedResourceStatuses: { storage: "NodeResizePending" },
    },
    causes: [],
  },
  {
    name: "a negative capacity",
    kind: "pvc",
    status: { capacity: { storage: "-1Gi" } },
    causes: [
      "status.capacity[storage] | FieldValueInvalid | Invalid value: -1073741824: must be a valid resource quantity",
    ],
  },
  {
    name: "allocated resources other than storage, and negative",
    kind: "pvc",
    status: { allocatedResources: { cpu: "1", storage: "-1" } },
    causes: [
      'status.allocatedResources | FieldValueNotSupported | Unsupported value: "cpu": supported values: "storage"',
      "status.allocatedResources[storage] | FieldValueInvalid | Invalid value: -1: must be a valid resource quantity",
    ],
  },
  {
    name: "unknown resize statuses and resources",
    kind: "pvc",
    status: {
      allocatedResourceStatuses: { storage: "Shrinking", cpu: "NodeResizePending", memory: "Growing" },
    },
    causes: [
      'status.allocatedResourceStatuses | FieldValueNotSupported | Unsupported value: "cpu": supported values: "storage"',
      `status.allocatedResourceStatuses | FieldValueNotSupported | Unsupported value: "storage": supported values: ${RESIZE_STATUSES}`,
      'status.allocatedResourceStatuses | FieldValueNotSupported | Unsupported value: "memory": supported values: "storage"',
      `status.allocatedResourceStatuses | FieldValueNotSupported | Unsupported value: "memory": supported values: ${RESIZE_STATUSES}`,
    ],
  },
];

describeStatusRows("PersistentVolumeClaim status validation (dryRun=All /status writes)", ROWS);
