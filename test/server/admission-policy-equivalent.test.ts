/**
 * Admission policies with matchPolicy Equivalent on both targets, with a custom resource served as
 * v1 (`host`, `port`) and v2 (`endpoint`) and converted by a webhook (crd-conversion-fixtures.ts):
 * a ValidatingAdmissionPolicy whose rules name v1 evaluates a v2 request on the object converted
 * to v1, with `request.kind`/`resource` of v1 and `requestKind`/`requestResource` of v2, and an
 * Exact one does not apply; a MutatingAdmissionPolicy for v1 patches the v1 shape and its change
 * reaches the v2 object.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueName } from "../support/target.js";
import { ADMISSION, type Json, probeUntil } from "./admission-policy-support.js";
import {
  backendV1,
  backendV2,
  type ConversionSetup,
  CRDS,
  crdName,
  group,
  setUp,
  useConversionGroup,
} from "./crd-conversion-fixtures.js";

let c: ConversionSetup;
const created: string[] = [];

useConversionGroup();

beforeAll(async () => {
  c = await setUp();
});
afterAll(async () => {
  for (const path of created.reverse()) await c.t.call("DELETE", path);
  await c.t.call("DELETE", `${CRDS}/${crdName}`);
  await c.wh.close();
  await c.t.close();
});

async function create(resource: string, body: Json): Promise<void> {
  const res = await c.t.call("POST", `${ADMISSION}/${resource}`, { body });
  expect(res.status, res.text).toBe(201);
  created.push(`${ADMISSION}/${resource}/${body.metadata.name}`);
}

/** Constraints for creates of v1 backends in the suite's namespace. */
const v1Backends = (matchPolicy: "Equivalent" | "Exact") => ({
  matchPolicy,
  namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": c.ns } },
  resourceRules: [
    { apiGroups: [group], apiVersions: ["v1"], operations: ["CREATE"], resources: ["backends"] },
  ],
});

/** A dry-run create of a backend in `version`. */
const dryRun = (version: "v1" | "v2", body: Json) =>
  c.t.call("POST", `${c.base(version)}?dryRun=All`, { body });

async function validatingPolicy(name: string, spec: Json): Promise<void> {
  await create("validatingadmissionpolicies", {
    metadata: { name },
    spec: { failurePolicy: "Fail", ...spec },
  });
  await create("validatingadmissionpolicybindings", {
    metadata: { name: `${name}-b` },
    spec: { policyName: name, validationActions: ["Deny"] },
  });
}

const REPORT =
  "'port ' + string(object.spec.port) + ' of ' + object.apiVersion + ' as ' + request.kind.version + '/' + " +
  "request.resource.version + ', requested as ' + request.requestKind.version + '/' + request.requestResource.version";

describe("admission policies with matchPolicy Equivalent", () => {
  it("a ValidatingAdmissionPolicy for v1 evaluates a v2 request converted to v1; an Exact one does not apply", async () => {
    const equivalent = uniqueName("vap-eq");
    const exact = uniqueName("vap-exact");
    await validatingPolicy(equivalent, {
      matchConstraints: v1Backends("Equivalent"),
      validations: [
        { expression: "object.metadata.name != 'probe'", message: "probe refused" },
        { expression: "object.spec.port < 7000", messageExpression: REPORT },
      ],
    });
    await validatingPolicy(exact, {
      matchConstraints: v1Backends("Exact"),
      validations: [{ expression: "false", message: "exact policy applied" }],
    });
    await probeUntil(
      () => dryRun("v2", backendV2("probe")),
      (res) => res.status !== 201,
      `policy ${equivalent}`,
    );
    await probeUntil(
      () => dryRun("v1", backendV1("exact-probe")),
      (res) => String(res.json?.message).includes("exact policy applied"),
      `policy ${exact}`,
    );

    const big = await dryRun("v2", backendV2("big", "big:8080"));
    expect(big.status, big.text).toBe(422);
    expect(big.json.message).toBe(
      `backends.${group} "big" is forbidden: ValidatingAdmissionPolicy '${equivalent}' with binding '${equivalent}-b' denied request: ` +
        `port 8080 of ${group}/v1 as v1/v1, requested as v2/v2`,
    );
    const small = await dryRun("v2", backendV2("small", "small:6379"));
    expect(small.status, small.text).toBe(201);
  });

  it("a MutatingAdmissionPolicy for v1 patches a v2 request in the v1 shape; the change reaches the v2 object", async () => {
    const name = uniqueName("map-eq");
    await create("mutatingadmissionpolicies", {
      metadata: { name },
      spec: {
        failurePolicy: "Fail",
        reinvocationPolicy: "Never",
        matchConstraints: v1Backends("Equivalent"),
        mutations: [
          {
            patchType: "JSONPatch",
            jsonPatch: {
              expression:
                "object.metadata.name.startsWith('tuned') && request.kind.version == 'v1' ? " +
                "[JSONPatch{op: 'replace', path: '/spec/port', value: 6000}] : []",
            },
          },
        ],
      },
    });
    await create("mutatingadmissionpolicybindings", {
      metadata: { name: `${name}-b` },
      spec: { policyName: name },
    });
    await probeUntil(
      () => dryRun("v2", backendV2("tuned-probe", "x:1")),
      (res) => res.json?.spec?.endpoint === "x:6000",
      `policy ${name}`,
    );

    const res = await c.t.call("POST", c.base("v2"), { body: backendV2("tuned", "cache:6379") });
    expect(res.status, res.text).toBe(201);
    expect(res.json.apiVersion).toBe(`${group}/v2`);
    expect(res.json.spec).toMatchObject({ endpoint: "cache:6000" });
    const v1 = await c.t.call("GET", `${c.base("v1")}/tuned`);
    expect(v1.json.spec).toMatchObject({ host: "cache", port: 6000 });
  });
});
