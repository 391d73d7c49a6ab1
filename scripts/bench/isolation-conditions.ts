/**
 * The webhook-matchConditions phase of isolation-bench.ts: dry-run creates of ConfigMaps in a
 * namespace where four validating webhooks each have two expensive matchConditions (a uniqueness
 * check, quadratic in the ConfigMap's keys, close to the 10⁶ cost units one expression may spend;
 * two fit a webhook's 2.5·10⁶ budget) and a last cheap one that is false for these ConfigMaps, so
 * no webhook is called: what the other client feels is the conditions alone. They run on the event
 * loop; the server gives the loop back between them (packages/server/src/cel/admission/pacer.ts).
 */
import { deny } from "../../test/support/admission-webhooks.js";
import { startHttpsWebhook } from "../../test/support/https-webhook.js";
import type { AdmissionPhase, Call } from "./isolation-admission.js";

const NS = "iso-conditions";
const CONFIG = "isolation-expensive-conditions";
const WEBHOOKS = 4;
const KEYS = 440;
const json = (v: unknown) => JSON.stringify(v);

/** One quadratic check spelt with its own variable names, so no two are the same expression. */
const uniqueness = (i: number) => `object.data.all(k${i}, object.data.exists_one(j${i}, j${i} == k${i}))`;

const webhook = (url: string, caBundle: string, i: number) => ({
  name: `expensive-${i}.kubesdk.bench`,
  clientConfig: { url, caBundle },
  rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }],
  namespaceSelector: { matchLabels: { bench: NS } },
  matchConditions: [
    { name: "unique-a", expression: uniqueness(2 * i) },
    { name: "unique-b", expression: uniqueness(2 * i + 1) },
    { name: "probe-only", expression: "!has(object.data.k0)" },
  ],
  sideEffects: "None",
  admissionReviewVersions: ["v1"],
  timeoutSeconds: 5,
});

export async function expensiveConditions(call: Call): Promise<AdmissionPhase> {
  const hook = await startHttpsWebhook();
  hook.handle("/deny", (review) => deny(review, { message: "probe denied", code: 403 }));
  await call(
    "POST",
    "/api/v1/namespaces",
    json({ metadata: { name: NS, labels: { bench: NS } } }),
    "application/json",
  );
  const webhooks = Array.from({ length: WEBHOOKS }, (_, i) => webhook(`${hook.url}/deny`, hook.caBundle, i));
  const path = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
  const code = await call("POST", path, json({ metadata: { name: CONFIG }, webhooks }), "application/json");
  if (code !== 201) throw new Error(`creating the webhook configuration: ${code}`);
  const close = async () => {
    await call("DELETE", `${path}/${CONFIG}`);
    await hook.close();
  };
  const create = (name: string, data: Record<string, string>) =>
    call(
      "POST",
      `/api/v1/namespaces/${NS}/configmaps?dryRun=All`,
      json({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data }),
      "application/json",
    );
  // The webhooks are in force once the probe (whose conditions are all true) is refused.
  for (let i = 0; (await create("probe", { probe: "x" })) !== 403; i++) {
    if (i === 200) throw new Error("the webhooks are not in force");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const data = Object.fromEntries(Array.from({ length: KEYS }, (_, i) => [`k${i}`, "v"]));
  let n = 0;
  return {
    name: `conditions, ${2 * WEBHOOKS}×${KEYS}²`,
    send: () => create(`c${n++}`, data),
    close,
  };
}
