/**
 * Pod /status writes are validated as kube-apiserver 1.37 validates them (ValidatePodStatusUpdate):
 * custom condition types, the nominated node's name, the QoS class that never changes, containers
 * that do not leave the terminated state, pod and host IPs, resource claim statuses.
 */
import { DNS_SUBDOMAIN, NAME_PART } from "./spec-validation-cases.js";
import { describeStatusRows, type StatusRow } from "./status-validation-cases.js";

const container = (state: Record<string, unknown>) => ({
  name: "c",
  image: "i",
  imageID: "",
  ready: false,
  restartCount: 0,
  state,
});
const INVALID_IP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

const ROWS: StatusRow[] = [
  {
    name: "a running pod with a custom condition",
    kind: "pod",
    status: {
      phase: "Running",
      podIP: "10.0.0.1",
      podIPs: [{ ip: "10.0.0.1" }, { ip: "fd00::1" }],
      hostIP: "192.168.0.1",
      conditions: [{ type: "example.com/warm", status: "True" }],
    },
    causes: [],
  },
  {
    name: "a custom condition type that is no qualified name",
    kind: "pod",
    status: { conditions: [{ type: "not ok", status: "True" }] },
    causes: [`status.conditions[0].Type | FieldValueInvalid | Invalid value: "not ok": ${NAME_PART}`],
  },
  {
    name: "a nominated node that is no node name",
    kind: "pod",
    status: { nominatedNodeName: "Node_1" },
    causes: [`status.nominatedNodeName | FieldValueInvalid | Invalid value: "Node_1": ${DNS_SUBDOMAIN}`],
  },
  {
    name: "a QoS class that changes",
    kind: "pod",
    status: { qosClass: "Guaranteed" },
    causes: ['status.qosClass | FieldValueInvalid | Invalid value: "Guaranteed": field is immutable'],
  },
  {
    name: "a QoS class left empty keeps the stored one (older kubelets drop it)",
    kind: "pod",
    status: { qosClass: "" },
    causes: [],
  },
  {
    name: "the QoS class computed at create: Guaranteed when limits equal requests",
    kind: "pod",
    spec: { containers: [{ name: "c", image: "i", resources: { limits: { cpu: "1", memory: "1Gi" } } }] },
    status: { qosClass: "Guaranteed" },
    causes: [],
  },
  {
    name: "the QoS class computed at create: Burstable with requests only",
    kind: "pod",
    spec: { containers: [{ name: "c", image: "i", resources: { requests: { cpu: "100m" } } }] },
    status: { qosClass: "BestEffort" },
    causes: ['status.qosClass | FieldValueInvalid | Invalid value: "BestEffort": field is immutable'],
  },
  {
    name: "a terminated container of a never-restarting pod running again",
    kind: "pod",
    before: { containerStatuses: [container({ terminated: { exitCode: 0 } })] },
    status: { containerStatuses: [container({ running: {} })] },
    causes: [
      "status.containerStatuses[0].state | FieldValueForbidden | Forbidden: may not be transitioned to non-terminated state",
    ],
  },
  {
    name: "pod IPs that are no IPs",
    kind: "pod",
    status: { podIP: "x", podIPs: [{ ip: "x" }], hostIP: "y", hostIPs: [{ ip: "y" }] },
    causes: [
      `status.podIPs[0] | FieldValueInvalid | Invalid value: "x": ${INVALID_IP}`,
      `status.hostIPs[0] | FieldValueInvalid | Invalid value: "y": ${INVALID_IP}`,
    ],
  },
  {
    name: "two pod IPs of one family",
    kind: "pod",
    status: { podIP: "10.0.0.1", podIPs: [{ ip: "10.0.0.1" }, { ip: "10.0.0.2" }] },
    causes: [
      'status.podIPs | FieldValueInvalid | Invalid value: [{"IP":"10.0.0.1"},{"IP":"10.0.0.2"}]: may specify no more than one IP for each IP family',
    ],
  },
  {
    name: "a resource claim status for no claim of the pod",
    kind: "pod",
    status: { resourceClaimStatuses: [{ name: "gpu" }] },
    causes: [
      'status.resourceClaimStatuses[0].name | FieldValueInvalid | Invalid value: "gpu": must match the name of an entry in `spec.resourceClaims`',
    ],
  },
];

describeStatusRows("Pod status validation (dryRun=All /status writes)", ROWS, async (t) => {
  // kube-apiserver alone has no ServiceAccount controller to give the namespace its account.
  await t.call("POST", "/api/v1/namespaces/default/serviceaccounts", {
    body: { metadata: { name: "default" } },
  });
});
