import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { checkRow, type SpecRow } from "./spec-validation-cases.js";
import { CSR } from "./table-read.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const C = "/apis/certificates.k8s.io/v1";
const CSRS = `${C}/certificatesigningrequests`;
const CTBS = `${C}/clustertrustbundles`;
const b64 = (s: string) => Buffer.from(s).toString("base64");
const csr = (spec: Record<string, unknown>) => ({
  metadata: { name: "v" },
  spec: { request: CSR, signerName: "example.com/s", usages: ["client auth"], ...spec },
});
const OMITTED = 'spec.trustBundle | FieldValueInvalid | Invalid value: "<value omitted>":';

const CSR_ROWS: SpecRow[] = [
  { name: "a signed request", path: CSRS, body: csr({}), causes: [] },
  {
    name: "not a PEM request, no usages, the legacy signer",
    path: CSRS,
    body: csr({ request: b64("hello"), usages: [], signerName: "kubernetes.io/legacy-unknown" }),
    causes: [
      'spec.request | FieldValueInvalid | Invalid value: "aGVsbG8=": PEM block type must be CERTIFICATE REQUEST',
      "spec.usages | FieldValueRequired | Required value",
      'spec.signerName | FieldValueInvalid | Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
    ],
  },
  {
    name: "duplicate usages, a signer without a path, a short expiration",
    path: CSRS,
    body: csr({ usages: ["client auth", "client auth"], signerName: "nodomain", expirationSeconds: 10 }),
    causes: [
      'spec.usages[1] | FieldValueDuplicate | Duplicate value: "client auth"',
      "spec.signerName | FieldValueInvalid | Invalid value: \"nodomain\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
      "spec.expirationSeconds | FieldValueInvalid | Invalid value: 10: may not specify a duration less than 600 seconds (10 minutes)",
    ],
  },
  {
    name: "a tampered signature",
    path: CSRS,
    body: csr({ request: tampered(CSR) }),
    causes: [
      `spec.request | FieldValueInvalid | Invalid value: "${tampered(CSR)}": x509: ECDSA verification failure`,
    ],
  },
];

/** The request with one byte of its signature changed. */
function tampered(requestBase64: string): string {
  const pem = Buffer.from(requestBase64, "base64").toString();
  const body = pem
    .split("\n")
    .filter((l) => l && !l.startsWith("-----"))
    .join("");
  const der = Buffer.from(body, "base64");
  der[der.length - 5] = (der[der.length - 5] as number) ^ 0xff;
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return b64(`-----BEGIN CERTIFICATE REQUEST-----\n${lines.join("\n")}\n-----END CERTIFICATE REQUEST-----\n`);
}

describe("certificates spec validation (dryRun=All creates)", () => {
  it.each(CSR_ROWS)("CSR: $name", async (row) => {
    await checkRow(t, row);
  });

  it("cluster trust bundles: CA certificates, no duplicates, CERTIFICATE blocks only", async () => {
    const ca = t.ca as string;
    const first = ca.slice(0, ca.indexOf("-----END CERTIFICATE-----") + 26);
    const rows: SpecRow[] = [
      {
        name: "one CA",
        path: CTBS,
        body: { metadata: { name: "v" }, spec: { trustBundle: first } },
        causes: [],
      },
      {
        name: "empty",
        path: CTBS,
        body: { metadata: { name: "v" }, spec: { trustBundle: "" } },
        causes: [`${OMITTED} at least one trust anchor must be provided`],
      },
      {
        name: "duplicate",
        path: CTBS,
        body: { metadata: { name: "v" }, spec: { trustBundle: first + first } },
        causes: [`${OMITTED} duplicate trust anchor (indices [0 1])`],
      },
      {
        name: "wrong block type",
        path: CTBS,
        body: {
          metadata: { name: "v" },
          spec: { trustBundle: first.replace(/CERTIFICATE/g, "PRIVATE KEY") },
        },
        causes: [`${OMITTED} entry 0 has bad block type: PRIVATE KEY`],
      },
      {
        name: "a signer name that is not a domain and path",
        path: CTBS,
        body: { metadata: { name: "nodomain:x" }, spec: { signerName: "nodomain", trustBundle: first } },
        causes: [
          "spec.signerName | FieldValueInvalid | Invalid value: \"nodomain\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
        ],
      },
    ];
    for (const row of rows) await checkRow(t, row);
  });

  it("a CSR's status may not gain an Approved condition through /status", async () => {
    const name = uniqueName("csr");
    const created = await t.call("POST", CSRS, { body: { ...csr({}), metadata: { name } } });
    expect(created.status).toBe(201);
    const res = await t.call("PUT", `${CSRS}/${name}/status`, {
      body: {
        ...created.json,
        status: { conditions: [{ type: "Approved", status: "True", reason: "R", message: "m" }] },
      },
    });
    await t.call("DELETE", `${CSRS}/${name}`);
    expect(res.status).toBe(422);
    expect(res.json.details.causes).toEqual([
      {
        reason: "FieldValueForbidden",
        message: 'Forbidden: updates may not add a condition of type "Approved"',
        field: "status.conditions",
      },
    ]);
  });
});

// Upstream's "Certificates API" conformance test approves through /approval (listed in discovery).
describe("CSR approval subresource", () => {
  it("is in discovery, and changes only the conditions: spec, certificate and labels as sent", async () => {
    const discovery = await t.call("GET", C);
    const names = discovery.json.resources.map((r: { name: string }) => r.name);
    expect(names).toContain("certificatesigningrequests/approval");
    const name = uniqueName("csr");
    const created = await t.call("POST", CSRS, { body: { ...csr({}), metadata: { name } } });
    expect(created.status).toBe(201);
    const approved = { type: "Approved", status: "True", reason: "E2E", message: "approved" };
    const res = await t.call("PUT", `${CSRS}/${name}/approval`, {
      body: {
        ...created.json,
        metadata: { ...created.json.metadata, labels: { approved: "yes" } },
        spec: { ...created.json.spec, usages: ["server auth"] },
        status: { conditions: [approved], certificate: b64("not a certificate") },
      },
    });
    const got = await t.call("GET", `${CSRS}/${name}/approval`);
    await t.call("DELETE", `${CSRS}/${name}`);
    expect(res.status).toBe(200);
    expect(res.json.spec.usages).toEqual(["client auth"]);
    expect(res.json.status.certificate).toBeUndefined();
    expect(res.json.metadata.labels).toEqual({ approved: "yes" });
    expect(res.json.status.conditions).toMatchObject([approved]);
    expect(got.json.status.conditions).toMatchObject([approved]);
  });
});
