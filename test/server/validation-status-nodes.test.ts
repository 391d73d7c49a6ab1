/**
 * Node /status writes are validated as kube-apiserver 1.37 validates node updates
 * (ValidateNodeUpdate): capacity and allocatable quantities, unique addresses, and nothing else.
 */
import { describeStatusRows, type StatusRow } from "./status-validation-cases.js";

const ROWS: StatusRow[] = [
  {
    name: "a kubelet's report",
    kind: "node",
    status: {
      capacity: { cpu: "4", memory: "8Gi", pods: "110", "hugepages-2Mi": "0" },
      allocatable: { cpu: "3500m", memory: "7Gi", pods: "110" },
      addresses: [
        { type: "InternalIP", address: "10.0.0.5" },
        { type: "Hostname", address: "n1" },
      ],
      conditions: [{ type: "Ready", status: "True", reason: "KubeletReady" }],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: "m",
        kubeletVersion: "v1.37.1",
        architecture: "amd64",
        operatingSystem: "linux",
      },
    },
    causes: [],
  },
  {
    name: "bad quantities (names and hugepage sizes are not checked)",
    kind: "node",
    status: {
      capacity: { cpu: "-1", pods: "1500m", "hugepages-2Mi": "2Mi", "hugepages-1Gi": "1Gi", "bad name": "1" },
      allocatable: { memory: "-1Gi", "example.com/gpu": "500m" },
    },
    causes: [
      'status.allocatable.example.com/gpu | FieldValueInvalid | Invalid value: "500m": must be an integer',
      'status.allocatable.memory | FieldValueInvalid | Invalid value: "-1Gi": must be greater than or equal to 0',
      'status.capacity.cpu | FieldValueInvalid | Invalid value: "-1": must be greater than or equal to 0',
      'status.capacity.pods | FieldValueInvalid | Invalid value: "1500m": must be an integer',
    ],
  },
  {
    name: "a duplicate address; nothing else of the status is checked",
    kind: "node",
    status: {
      addresses: [
        { type: "InternalIP", address: "10.0.0.5" },
        { type: "InternalIP", address: "10.0.0.5" },
        { type: "Weird", address: "not-an-ip" },
        { type: "", address: "" },
      ],
      conditions: [
        { type: "Ready", status: "Maybe" },
        { type: "", status: "" },
        { type: "Ready", status: "True" },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: -1 } },
      phase: "Bogus",
      volumesAttached: [{ name: "", devicePath: "" }],
      nodeInfo: { operatingSystem: "plan9", architecture: "" },
      images: [{ names: [], sizeBytes: -1 }],
    },
    causes: [
      'status.addresses[1] | FieldValueDuplicate | Duplicate value: {"Type":"InternalIP","Address":"10.0.0.5"}',
    ],
  },
];

describeStatusRows("Node status validation (dryRun=All /status writes)", ROWS);
