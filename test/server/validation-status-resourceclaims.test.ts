/**
 * ResourceClaim /status writes are held to kube-apiserver 1.37's status rules (the part kept in
 * packages/server/src/registry/resource/claim-status.ts): reservations and device statuses.
 */
import { describeStatusRows, type StatusRow } from "./status-validation-cases.js";

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

const RESULT = { request: "r", driver: "dra.example.com", pool: "pool-a", device: "gpu-0" };

const ROWS: StatusRow[] = [
  {
    name: "an allocated claim reserved for a pod, its device's status",
    kind: "resourceclaim",
    before: { allocation: { devices: { results: [RESULT] } } },
    status: {
      reservedFor: [{ resource: "pods", name: "p", uid: "u1" }],
      devices: [
        {
          driver: "dra.example.com",
          pool: "pool-a",
          device: "gpu-0",
          conditions: [
            { type: "Ready", status: "True", reason: "Up", lastTransitionTime: "2026-01-01T00:00:00Z" },
          ],
        },
      ],
    },
    causes: [],
  },
  {
    name: "reservations on an unallocated claim and an unallocated device",
    kind: "resourceclaim",
    status: {
      reservedFor: [
        { resource: "pods", name: "p", uid: "u1" },
        { resource: "pods", name: "p", uid: "u1" },
        { resource: "", name: "" },
      ],
      devices: [{ driver: "Bad_Driver", pool: "", device: "", conditions: [{ type: "x", status: "Maybe" }] }],
    },
    causes: [
      "status.reservedFor[2].resource | FieldValueRequired | Required value",
      "status.reservedFor[2].name | FieldValueRequired | Required value",
      "status.reservedFor[2].uid | FieldValueRequired | Required value",
      `status.devices[0].driver | FieldValueInvalid | Invalid value: "Bad_Driver": ${SUBDOMAIN}`,
      "status.devices[0].pool | FieldValueRequired | Required value",
      `status.devices[0].device | FieldValueInvalid | Invalid value: "": ${LABEL}`,
      'status.devices[0] | FieldValueInvalid | Invalid value: {"Driver":"Bad_Driver","Pool":"","Device":"","ShareID":""}: must be an allocated device in the claim',
      'status.devices[0].conditions[0].status | FieldValueNotSupported | Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      "status.devices[0].conditions[0].lastTransitionTime | FieldValueRequired | Required value",
      "status.devices[0].conditions[0].reason | FieldValueRequired | Required value",
      "status.reservedFor | FieldValueForbidden | Forbidden: may not be specified when `allocated` is not set",
      'status.reservedFor[1] | FieldValueDuplicate | Duplicate value: {"resource":"pods","name":"p","uid":"u1"}',
    ],
  },
];

describeStatusRows("ResourceClaim status validation (dryRun=All /status writes)", ROWS);
