/**
 * Webhook configurations for contract tests: each configuration gets a probe webhook first in its
 * list, so a test can wait until the server uses the configuration (kube-apiserver picks up
 * configuration changes asynchronously) by retrying a dry-run probe until the probe webhook is
 * called — a bounded retry on an observable event, not a sleep. Webhooks are scoped to one test
 * namespace through its `webhook-test` label.
 */
import { vi } from "vitest";
import { type HttpsWebhook, startHttpsWebhook } from "./https-webhook.js";
import { expectOk } from "./kubelet.js";
import { startTarget, type TestTarget, uniqueName } from "./target.js";

type Json = Record<string, unknown>;
export type WebhookKind = "validating" | "mutating";

const PATH: Record<WebhookKind, string> = {
  validating: "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
  mutating: "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
};

/** The answer of an AdmissionReview request: allowed, with optional extra response fields. */
export function allow(review: unknown, extra: Json = {}): Json {
  const uid = (review as { request: { uid: string } }).request.uid;
  return {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    response: { uid, allowed: true, ...extra },
  };
}

export function deny(review: unknown, status: Json): Json {
  const uid = (review as { request: { uid: string } }).request.uid;
  return {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    response: { uid, allowed: false, status },
  };
}

/** A JSONPatch answer. */
export function patch(review: unknown, ops: unknown[], extra: Json = {}): Json {
  return allow(review, {
    patchType: "JSONPatch",
    patch: Buffer.from(JSON.stringify(ops)).toString("base64"),
    ...extra,
  });
}

/** A test namespace carrying the label the webhooks below select. */
export async function createTestNamespace(t: TestTarget, name: string): Promise<void> {
  await expectOk(
    `namespace ${name}`,
    t.call("POST", "/api/v1/namespaces", { body: { metadata: { name, labels: { "webhook-test": name } } } }),
  );
}

/** A webhook on `hook` at `path` for configmaps in namespace `ns`, with overrides. */
export function webhookFor(
  hook: HttpsWebhook,
  name: string,
  path: string,
  ns: string,
  extra: Json = {},
): Json {
  return {
    name,
    clientConfig: { url: `${hook.url}${path}`, caBundle: hook.caBundle },
    rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }],
    namespaceSelector: { matchLabels: { "webhook-test": ns } },
    objectSelector: { matchExpressions: [{ key: "probe", operator: "DoesNotExist" }] },
    sideEffects: "None",
    admissionReviewVersions: ["v1"],
    ...extra,
  };
}

/**
 * Creates the configuration with a probe webhook first and resolves once the server calls it.
 * The probe answers allowed at `/probe-<config>`.
 */
export async function installWebhooks(
  t: TestTarget,
  kind: WebhookKind,
  hook: HttpsWebhook,
  config: string,
  ns: string,
  webhooks: Json[],
): Promise<void> {
  const probePath = `/probe-${config}`;
  hook.handle(probePath, (review) => allow(review));
  const probe = {
    ...webhookFor(hook, "probe.kubesdk.test", probePath, ns),
    objectSelector: { matchLabels: { probe: config } },
  };
  await expectOk(
    `${kind} webhook configuration ${config}`,
    t.call("POST", PATH[kind], { body: { metadata: { name: config }, webhooks: [probe, ...webhooks] } }),
  );
  let attempt = 0;
  await vi.waitFor(
    async () => {
      const name = `probe-${++attempt}`;
      await t.call("POST", `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, {
        body: { metadata: { name, labels: { probe: config } } },
      });
      const called = hook.requests.some(
        (r) => r.path === probePath && (r.body as { request?: { name?: string } }).request?.name === name,
      );
      if (!called) throw new Error(`webhook configuration ${config} not in effect yet`);
    },
    { timeout: 20_000, interval: 50 },
  );
}

export async function removeWebhooks(t: TestTarget, kind: WebhookKind, config: string): Promise<void> {
  await t.call("DELETE", `${PATH[kind]}/${config}`);
}

/** The AdmissionReview requests `hook` received on `path`. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
export function reviewsAt(hook: HttpsWebhook, path: string): any[] {
  return hook.requests.filter((r) => r.path === path).map((r) => (r.body as { request: Json }).request);
}

/** One test file's target, webhook endpoint and the configurations it installed (removed by `close`). */
export class WebhookSuite {
  private readonly configs: { kind: WebhookKind; name: string }[] = [];
  private constructor(
    readonly t: TestTarget,
    readonly hook: HttpsWebhook,
  ) {}

  static async start(): Promise<WebhookSuite> {
    return new WebhookSuite(await startTarget(), await startHttpsWebhook());
  }

  /** A fresh namespace the suite's webhooks select (webhookFor), named after `prefix`. */
  async namespace(prefix: string): Promise<string> {
    const ns = uniqueName(prefix);
    await createTestNamespace(this.t, ns);
    return ns;
  }

  /** installWebhooks, remembering the configuration for `close`. */
  async install(
    kind: WebhookKind,
    config: string,
    ns: string,
    webhooks: object[],
    on = this.hook,
  ): Promise<void> {
    this.configs.push({ kind, name: config });
    await installWebhooks(this.t, kind, on, config, ns, webhooks as Json[]);
  }

  async close(): Promise<void> {
    for (const c of this.configs) await removeWebhooks(this.t, c.kind, c.name);
    await this.hook.close();
    await this.t.close();
  }
}
