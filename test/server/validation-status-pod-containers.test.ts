/**
 * The container statuses of pod /status writes are checked as kube-apiserver 1.37 checks them:
 * the `user` a container runs as (Linux ids in range, none on a Windows pod) and its
 * `allocatedResourcesStatus` (names of its requests or claims, health values, unique resource IDs).
 */
import { describeStatusRows, type StatusRow } from "./status-validation-cases.js";

const AT = "status.containerStatuses[0]";
const CLAIM_MSG =
  "must match one of the container's resource claims as 'claim:<claimName>/<requestName>' when container.resources.claims[*].request is set or 'claim:<claimName>' when it is empty";
const statuses = (extra: Record<string, unknown>) => ({
  containerStatuses: [{ name: "c", image: "i", imageID: "", ready: false, restartCount: 0, ...extra }],
});

const ROWS: StatusRow[] = [
  {
    name: "a user and the health of a requested resource",
    kind: "pod",
    spec: { containers: [{ name: "c", image: "i", resources: { requests: { cpu: "1" } } }] },
    status: statuses({
      user: { linux: { uid: 1000, gid: 1000, supplementalGroups: [1, 2] } },
      allocatedResourcesStatus: [{ name: "cpu", resources: [{ resourceID: "x", health: "Healthy" }] }],
    }),
    causes: [],
  },
  {
    name: "negative Linux ids",
    kind: "pod",
    status: statuses({ user: { linux: { uid: -1, gid: -2, supplementalGroups: [1, -3] } } }),
    causes: [
      `${AT}.user.linux.uid | FieldValueInvalid | Invalid value: -1: must be between 0 and 4294967295, inclusive`,
      `${AT}.user.linux.gid | FieldValueInvalid | Invalid value: -2: must be between 0 and 2147483647, inclusive`,
      `${AT}.user.linux.supplementalGroups[1] | FieldValueInvalid | Invalid value: -3: must be between 0 and 2147483647, inclusive`,
    ],
  },
  {
    name: "a Linux user on a Windows pod",
    kind: "pod",
    spec: { os: { name: "windows" } },
    status: statuses({ user: { linux: { uid: 1, gid: 1 } } }),
    causes: [`${AT}.user.linux | FieldValueForbidden | Forbidden: cannot be set for a windows pod`],
  },
  {
    name: "allocated resource statuses of unknown names, health values and repeated ids",
    kind: "pod",
    status: statuses({
      allocatedResourcesStatus: [
        { name: "cpu", resources: [{ resourceID: "x", health: "Healthy" }] },
        {
          name: "claim:",
          resources: [
            { resourceID: "", health: "Bogus" },
            { resourceID: "", health: "Healthy" },
          ],
        },
        { name: "claim:c1/r", resources: [{ resourceID: "a", health: "Unhealthy" }] },
      ],
    }),
    causes: [
      `${AT}.allocatedResourcesStatus[0].name | FieldValueInvalid | Invalid value: "cpu": must match one of the container's resource requests`,
      `${AT}.allocatedResourcesStatus[1].name | FieldValueInvalid | Invalid value: "claim:": ${CLAIM_MSG}`,
      `${AT}.allocatedResourcesStatus[1].resources[0].health | FieldValueNotSupported | Unsupported value: "Bogus": supported values: "Healthy", "Unhealthy", "Unknown"`,
      `${AT}.allocatedResourcesStatus[1].resources[1].resourceID | FieldValueDuplicate | Duplicate value: ""`,
      `${AT}.allocatedResourcesStatus[2].name | FieldValueInvalid | Invalid value: "claim:c1/r": ${CLAIM_MSG}`,
    ],
  },
];

describeStatusRows("Pod container status validation (dryRun=All /status writes)", ROWS, async (t) => {
  // kube-apiserver alone has no ServiceAccount controller to give the namespace its account.
  await t.call("POST", "/api/v1/namespaces/default/serviceaccounts", {
    body: { metadata: { name: "default" } },
  });
});
