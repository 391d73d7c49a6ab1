import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { checkRow, createThenPut, DNS_SUBDOMAIN, NAME_PART, type SpecRow } from "./spec-validation-cases.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const S = "/apis/storage.k8s.io/v1";
const meta = { name: "v" };
const CASELESS =
  "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const ROWS: SpecRow[] = [
  {
    name: "storage class: a provisioner",
    path: `${S}/storageclasses`,
    body: { metadata: meta, provisioner: "example.com/fast" },
    causes: [],
  },
  {
    name: "storage class: policies, parameters and topologies",
    path: `${S}/storageclasses`,
    body: {
      metadata: meta,
      provisioner: "",
      reclaimPolicy: "Recycle",
      volumeBindingMode: "Later",
      parameters: { "": "x" },
      allowedTopologies: [{ matchLabelExpressions: [{ key: "a b", values: [] }] }, {}, {}],
    },
    causes: [
      'parameters | FieldValueInvalid | Invalid value: "": field can not be empty.',
      'reclaimPolicy | FieldValueNotSupported | Unsupported value: "Recycle": supported values: "Delete", "Retain"',
      'volumeBindingMode | FieldValueNotSupported | Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
      "allowedTopologies[0].matchLabelExpressions[0].values | FieldValueRequired | Required value",
      `allowedTopologies[0].matchLabelExpressions[0].key | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
      'allowedTopologies[1].matchLabelExpressions | FieldValueDuplicate | Duplicate value: ""',
      'allowedTopologies[2].matchLabelExpressions | FieldValueDuplicate | Duplicate value: ""',
      "provisioner | FieldValueRequired | Required value",
    ],
  },
  {
    name: "CSI driver: policies, lifecycle modes, token requests",
    path: `${S}/csidrivers`,
    body: {
      metadata: meta,
      spec: {
        fsGroupPolicy: "X",
        volumeLifecycleModes: ["Y"],
        tokenRequests: [{ audience: "a", expirationSeconds: 5 }, { audience: "a" }],
        nodeAllocatableUpdatePeriodSeconds: 5,
      },
    },
    causes: [
      'spec.fsGroupPolicy | FieldValueNotSupported | Unsupported value: "X": supported values: "File", "None", "ReadWriteOnceWithFSType"',
      "spec.tokenRequests[0].expirationSeconds | FieldValueInvalid | Invalid value: 5: may not specify a duration less than 10 minutes",
      'spec.tokenRequests[1].audience | FieldValueDuplicate | Duplicate value: "a"',
      'spec.volumeLifecycleModes | FieldValueNotSupported | Unsupported value: "Y": supported values: "Persistent", "Ephemeral"',
      "spec.nodeAllocatableUpdatePeriodSeconds | FieldValueInvalid | Invalid value: 5: must be greater than or equal to 10 seconds",
    ],
  },
  {
    name: "CSI node: driver names, node ids, duplicates",
    path: `${S}/csinodes`,
    body: {
      metadata: meta,
      spec: {
        drivers: [
          { name: "Bad_Driver", nodeID: "" },
          { name: "Bad_Driver", nodeID: "n" },
        ],
      },
    },
    causes: [
      `spec.drivers[0].name | FieldValueInvalid | Invalid value: "Bad_Driver": ${DNS_SUBDOMAIN}`,
      "spec.drivers[0].nodeID | FieldValueRequired | Required value",
      `spec.drivers[1].name | FieldValueInvalid | Invalid value: "Bad_Driver": ${DNS_SUBDOMAIN}`,
      'spec.drivers[1].name | FieldValueDuplicate | Duplicate value: "Bad_Driver"',
    ],
  },
  {
    name: "volume attachment: attacher, source, node",
    path: `${S}/volumeattachments`,
    body: { metadata: meta, spec: { attacher: "Bad Name", source: {}, nodeName: "N" } },
    causes: [
      "spec.source | FieldValueRequired | Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName",
      `spec.nodeName | FieldValueInvalid | Invalid value: "N": ${DNS_SUBDOMAIN}`,
      `spec.attacher | FieldValueInvalid | Invalid value: "Bad Name": ${CASELESS}`,
    ],
  },
];

describe("storage spec validation (dryRun=All creates)", () => {
  it.each(ROWS)("$name", async (row) => {
    await checkRow(t, row);
  });

  it("a storage class's provisioner and parameters are immutable", async () => {
    const res = await createThenPut(
      t,
      `${S}/storageclasses`,
      { metadata: { name: uniqueName("sc") }, provisioner: "example.com/a" },
      (sc) => ({ ...sc, provisioner: "example.com/b" }),
    );
    expect(res.status).toBe(422);
    // The declarative immutability check prints no value.
    expect(res.causes).toEqual(["provisioner | FieldValueInvalid | Invalid value: null: field is immutable"]);
  });

  it("a volume attributes class needs parameters, and its driver and parameters never change", async () => {
    await checkRow(t, {
      name: "no parameters",
      path: `${S}/volumeattributesclasses`,
      body: { metadata: meta, driverName: "example.com" },
      causes: ["parameters | FieldValueRequired | Required value: must contain at least one key/value pair"],
    });
    const res = await createThenPut(
      t,
      `${S}/volumeattributesclasses`,
      { metadata: { name: uniqueName("vac") }, driverName: "example.com", parameters: { a: "b" } },
      (vac) => ({ ...vac, driverName: "example.org", parameters: { a: "c" } }),
    );
    expect(res.causes).toEqual([
      "driverName | FieldValueForbidden | Forbidden: updates to driverName are forbidden.",
      "parameters | FieldValueForbidden | Forbidden: updates to parameters are forbidden.",
    ]);
  });

  it("a CSI storage capacity names a storage class and has a valid topology", async () => {
    await checkRow(t, {
      name: "bad class and topology",
      path: `/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities`,
      body: {
        metadata: meta,
        storageClassName: "Bad_Class",
        nodeTopology: { matchExpressions: [{ key: "k", operator: "In" }] },
      },
      causes: [
        "nodeTopology.matchExpressions[0].values | FieldValueRequired | Required value: must be specified when `operator` is 'In' or 'NotIn'",
        `storageClassName | FieldValueInvalid | Invalid value: "Bad_Class": ${DNS_SUBDOMAIN}`,
      ],
    });
  });
});
