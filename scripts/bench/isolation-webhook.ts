/**
 * The slow-webhook phase of isolation-bench.ts: one client creating ConfigMaps (dry run, 4 at a
 * time) in a namespace where a validating webhook (served from this process) answers each review
 * after 500 ms, while another client sends small GETs. The server waits for the webhook without
 * holding its event loop, so the GETs should see no more than the idle latency.
 */
import { allow } from "../../test/support/admission-webhooks.js";
import { startHttpsWebhook } from "../../test/support/https-webhook.js";

type Call = (method: string, path: string, body?: string, contentType?: string) => Promise<number>;

const NS = "iso-hook";
const CONFIG = "isolation-slow-webhook";
const ANSWER_AFTER_MS = 500;
// Fewer than the bench client's 8 connections: the GETs must not queue behind the creates in the client.
const PARALLEL = 4;

export interface SlowWebhook {
  readonly name: string;
  readonly send: () => Promise<number>;
  readonly close: () => Promise<void>;
}

export async function slowWebhook(call: Call): Promise<SlowWebhook> {
  const hook = await startHttpsWebhook();
  hook.handle(
    "/slow",
    (review) => new Promise((resolve) => setTimeout(() => resolve(allow(review)), ANSWER_AFTER_MS)),
  );
  const json = (v: unknown) => JSON.stringify(v);
  await call(
    "POST",
    "/api/v1/namespaces",
    json({ metadata: { name: NS, labels: { bench: NS } } }),
    "application/json",
  );
  await call(
    "POST",
    "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
    json({
      metadata: { name: CONFIG },
      webhooks: [
        {
          name: "slow.kubesdk.bench",
          clientConfig: { url: `${hook.url}/slow`, caBundle: hook.caBundle },
          rules: [
            { operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] },
          ],
          namespaceSelector: { matchLabels: { bench: NS } },
          sideEffects: "None",
          admissionReviewVersions: ["v1"],
          timeoutSeconds: 5,
        },
      ],
    }),
    "application/json",
  );
  let n = 0;
  const createOne = () =>
    call(
      "POST",
      `/api/v1/namespaces/${NS}/configmaps?dryRun=All`,
      json({ metadata: { name: `c${n++}` }, data: { a: "b" } }),
      "application/json",
    );
  return {
    name: "slow webhook (500 ms)",
    send: async () => {
      const codes = await Promise.all(Array.from({ length: PARALLEL }, createOne));
      return codes.find((c) => c !== 201) ?? 201;
    },
    close: async () => {
      await call("DELETE", `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${CONFIG}`);
      await hook.close();
    },
  };
}
