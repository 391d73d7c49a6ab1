/**
 * matchPolicy Equivalent on both targets, with a custom resource served as v1 (`host`, `port`) and
 * v2 (`endpoint`) and converted by a webhook (crd-conversion-fixtures.ts): an admission webhook
 * whose rules name v1 is called for a request to v2 with the object converted to v1, `kind` and
 * `resource` of v1 and `requestKind`/`requestResource` of v2; its patch, written against v1, reaches
 * the v2 object. A webhook with matchPolicy Exact is not called for the other version. The same for a
 * built-in kind in two versions: an autoscaling/v1 HPA reaches a webhook for autoscaling/v2.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allow, patch, reviewsAt, WebhookSuite, webhookFor } from "../support/admission-webhooks.js";
import {
  backendsCrd,
  backendV2,
  CRDS,
  convertReview,
  crdName,
  established,
  group,
  retryUntil,
  useConversionGroup,
} from "./crd-conversion-fixtures.js";

let s: WebhookSuite;
let ns: string;

useConversionGroup();

beforeAll(async () => {
  s = await WebhookSuite.start();
  s.hook.handle("/convert", convertReview);
  ns = await s.namespace("equivalent");
  const created = await s.t.call("POST", CRDS, { body: backendsCrd(s.hook) });
  expect(created.status, created.text).toBe(201);
  await established(s.t, crdName);
  // kube-apiserver serves a new CRD's versions a little after Established.
  await retryUntil(
    () => s.t.call("GET", `/apis/${group}/v2/namespaces/${ns}/backends`),
    (r) => r.status === 200,
  );
});
afterAll(async () => {
  await s.t.call("DELETE", `${CRDS}/${crdName}`);
  await s.close();
});

/** Rules for the backends of v1 only. */
const v1Backends = (matchPolicy: "Equivalent" | "Exact") => ({
  matchPolicy,
  rules: [{ operations: ["CREATE"], apiGroups: [group], apiVersions: ["v1"], resources: ["backends"] }],
});

describe("matchPolicy Equivalent", () => {
  it("calls a webhook for v1 with a v2 request converted to v1, and its v1 patch reaches the v2 object", async () => {
    const mutate = `/port-${ns}`;
    const exact = `/exact-${ns}`;
    const validate = `/validate-${ns}`;
    s.hook.handle(mutate, (review) => patch(review, [{ op: "replace", path: "/spec/port", value: 6000 }]));
    s.hook.handle(exact, (review) => allow(review));
    s.hook.handle(validate, (review) => allow(review));
    await s.install("mutating", `${ns}-m`, ns, [
      webhookFor(s.hook, "port.kubesdk.test", mutate, ns, v1Backends("Equivalent")),
      webhookFor(s.hook, "exact.kubesdk.test", exact, ns, v1Backends("Exact")),
    ]);
    await s.install("validating", `${ns}-v`, ns, [
      webhookFor(s.hook, "validate.kubesdk.test", validate, ns, v1Backends("Equivalent")),
    ]);

    const res = await s.t.call("POST", `/apis/${group}/v2/namespaces/${ns}/backends`, {
      body: backendV2("cache", "cache:6379"),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.apiVersion).toBe(`${group}/v2`);
    expect(res.json.spec.endpoint).toBe("cache:6000");

    const [mutating] = reviewsAt(s.hook, mutate).filter((r) => r.name === "cache");
    expect(mutating.kind).toEqual({ group, version: "v1", kind: "Backend" });
    expect(mutating.resource).toEqual({ group, version: "v1", resource: "backends" });
    expect(mutating.requestKind).toEqual({ group, version: "v2", kind: "Backend" });
    expect(mutating.requestResource).toEqual({ group, version: "v2", resource: "backends" });
    expect(mutating.object.apiVersion).toBe(`${group}/v1`);
    expect(mutating.object.spec).toMatchObject({ host: "cache", port: 6379 });

    const [validating] = reviewsAt(s.hook, validate).filter((r) => r.name === "cache");
    expect(validating.kind.version).toBe("v1");
    expect(validating.requestKind.version).toBe("v2");
    expect(validating.object.spec).toMatchObject({ host: "cache", port: 6000 });
    expect(reviewsAt(s.hook, exact).filter((r) => r.name === "cache")).toHaveLength(0);
  });

  it("converts a built-in kind stored in another version: an autoscaling/v1 HPA for a v2 webhook", async () => {
    const mutate = `/hpa-${ns}`;
    s.hook.handle(mutate, (review) =>
      patch(review, [{ op: "replace", path: "/spec/maxReplicas", value: 7 }]),
    );
    await s.install("mutating", `${ns}-hpa`, ns, [
      webhookFor(s.hook, "hpa.kubesdk.test", mutate, ns, {
        matchPolicy: "Equivalent",
        rules: [
          {
            operations: ["CREATE"],
            apiGroups: ["autoscaling"],
            apiVersions: ["v2"],
            resources: ["horizontalpodautoscalers"],
          },
        ],
      }),
    ]);
    const res = await s.t.call("POST", `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers`, {
      body: {
        apiVersion: "autoscaling/v1",
        kind: "HorizontalPodAutoscaler",
        metadata: { name: "web" },
        spec: {
          scaleTargetRef: { kind: "Deployment", name: "web", apiVersion: "apps/v1" },
          maxReplicas: 3,
          targetCPUUtilizationPercentage: 50,
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.apiVersion).toBe("autoscaling/v1");
    expect(res.json.spec).toMatchObject({ maxReplicas: 7, targetCPUUtilizationPercentage: 50 });
    const [review] = reviewsAt(s.hook, mutate).filter((r) => r.name === "web");
    expect(review.kind).toEqual({ group: "autoscaling", version: "v2", kind: "HorizontalPodAutoscaler" });
    expect(review.requestKind).toEqual({
      group: "autoscaling",
      version: "v1",
      kind: "HorizontalPodAutoscaler",
    });
    expect(review.object.apiVersion).toBe("autoscaling/v2");
    expect(review.object.spec.metrics).toEqual([
      {
        type: "Resource",
        resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 50 } },
      },
    ]);
  });
});
