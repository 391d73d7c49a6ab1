/**
 * Reinvocation across MutatingAdmissionPolicy and mutating webhooks, on both targets: the mutating
 * phase runs a second time when either changed the object, and in it an `IfNeeded` policy or
 * webhook runs again when something changed the object after it ran — a later webhook's patch
 * reinvokes an earlier policy, and that policy's new change reinvokes the webhook.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allow, patch, reviewsAt, WebhookSuite, webhookFor } from "../support/admission-webhooks.js";
import { uniqueName } from "../support/target.js";
import { type Json, policyApi, probeUntil } from "./admission-policy-support.js";

let s: WebhookSuite;
const cleanup: string[] = [];
const api = policyApi(
  () => s.t,
  (path) => cleanup.push(path),
);

beforeAll(async () => {
  s = await WebhookSuite.start();
});
afterAll(async () => {
  for (const path of cleanup.reverse()) await s.t.call("DELETE", path);
  await s.close();
});

/**
 * A policy that records whether the object had the `webhook` label when it ran (annotation
 * `seen-webhook`), in force for ConfigMaps of `ns` once a dry-run create shows the annotation.
 */
async function recordingPolicy(ns: string, reinvocationPolicy: "IfNeeded" | "Never"): Promise<void> {
  const name = uniqueName("reinv");
  const expression = `Object{metadata: Object.metadata{annotations: {"seen-webhook": has(object.metadata.labels) && "webhook" in object.metadata.labels ? "yes" : "no"}}}`;
  await api.create("mutatingadmissionpolicies", {
    metadata: { name },
    spec: {
      failurePolicy: "Fail",
      reinvocationPolicy,
      matchConstraints: {
        namespaceSelector: { matchLabels: { "webhook-test": ns } },
        resourceRules: [
          { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] },
        ],
      },
      mutations: [{ patchType: "ApplyConfiguration", applyConfiguration: { expression } }],
    },
  });
  await api.create("mutatingadmissionpolicybindings", {
    metadata: { name: `${name}-b` },
    spec: { policyName: name },
  });
  await probeUntil(
    () =>
      s.t.call("POST", `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, {
        body: { metadata: { name: "probe-policy" } },
      }),
    (res) => res.json?.metadata?.annotations?.["seen-webhook"] !== undefined,
    `policy ${name}`,
  );
}

/** A webhook that adds the `webhook` label once (no change when it is there). */
function labellingWebhook(path: string): void {
  s.hook.handle(path, (review) => {
    const labels = (review as Json).request.object.metadata.labels ?? {};
    if ("webhook" in labels) return allow(review);
    return patch(review, [{ op: "add", path: "/metadata/labels", value: { ...labels, webhook: "yes" } }]);
  });
}

const create = (ns: string, name: string) =>
  s.t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name } } });

describe("reinvocation across admission policies and webhooks", () => {
  it("a webhook's change runs an earlier IfNeeded policy again, whose change calls an IfNeeded webhook again", async () => {
    const ns = await s.namespace("reinv-both");
    await recordingPolicy(ns, "IfNeeded");
    const path = `/label-${ns}`;
    labellingWebhook(path);
    await s.install("mutating", ns, ns, [
      webhookFor(s.hook, "label.kubesdk.test", path, ns, { reinvocationPolicy: "IfNeeded" }),
    ]);
    const res = await create(ns, "both");
    expect(res.status, res.text).toBe(201);
    expect(res.json.metadata.labels).toEqual({ webhook: "yes" });
    expect(res.json.metadata.annotations).toEqual({ "seen-webhook": "yes" });
    const calls = reviewsAt(s.hook, path).filter((r) => r.name === "both");
    // First run: no label yet. Second run, after the policy's new annotation: the label is there.
    expect(calls.map((r) => r.object.metadata.annotations?.["seen-webhook"])).toEqual(["no", "yes"]);
  });

  it("a policy with reinvocationPolicy Never is not run again after a webhook's change", async () => {
    const ns = await s.namespace("reinv-never");
    await recordingPolicy(ns, "Never");
    const path = `/label-${ns}`;
    labellingWebhook(path);
    await s.install("mutating", ns, ns, [
      webhookFor(s.hook, "label.kubesdk.test", path, ns, { reinvocationPolicy: "IfNeeded" }),
    ]);
    const res = await create(ns, "never");
    expect(res.status, res.text).toBe(201);
    expect(res.json.metadata.labels).toEqual({ webhook: "yes" });
    expect(res.json.metadata.annotations).toEqual({ "seen-webhook": "no" });
    expect(reviewsAt(s.hook, path).filter((r) => r.name === "never")).toHaveLength(1);
  });
});
