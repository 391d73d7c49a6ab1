/**
 * The webhooks to call: every ValidatingWebhookConfiguration or MutatingWebhookConfiguration in the
 * store, configurations sorted by name and webhooks in their listed order (upstream sorts the same
 * way), with the defaults kube-apiserver applies filled in where a stored object lacks them.
 */
import type { LabelSelectorObject } from "../../api/label-selector.js";
import type { AdmissionContext } from "../context.js";

export interface RuleWithOperations {
  readonly operations: readonly string[];
  readonly apiGroups: readonly string[];
  readonly apiVersions: readonly string[];
  readonly resources: readonly string[];
  /** "*", "Cluster" or "Namespaced". */
  readonly scope: string;
}

export interface ClientConfig {
  readonly url?: string;
  readonly service?: {
    readonly namespace: string;
    readonly name: string;
    readonly path?: string;
    readonly port: number;
  };
  /** Base64 of PEM certificates; unset: the system's roots. */
  readonly caBundle?: string;
}

export interface MatchCondition {
  readonly name: string;
  readonly expression: string;
}

export interface Webhook {
  /** `<configuration>/<webhook>#<index>`: identifies the webhook for reinvocation. */
  readonly uid: string;
  readonly configuration: string;
  readonly name: string;
  readonly clientConfig: ClientConfig;
  readonly rules: readonly RuleWithOperations[];
  readonly failurePolicy: "Fail" | "Ignore";
  readonly matchPolicy: "Exact" | "Equivalent";
  readonly namespaceSelector: LabelSelectorObject;
  readonly objectSelector: LabelSelectorObject;
  readonly sideEffects: string | undefined;
  readonly timeoutSeconds: number;
  readonly admissionReviewVersions: readonly string[];
  readonly reinvocationPolicy: "Never" | "IfNeeded";
  readonly matchConditions: readonly MatchCondition[];
}

export type WebhookKind = "validating" | "mutating";

const BUCKETS: Record<WebhookKind, string> = {
  validating: "admissionregistration.k8s.io/validatingwebhookconfigurations",
  mutating: "admissionregistration.k8s.io/mutatingwebhookconfigurations",
};

type Json = Record<string, unknown>;

function normalized(configuration: string, index: number, w: Json): Webhook {
  const client = (w.clientConfig ?? {}) as Json;
  const service = client.service as Json | undefined;
  const rules = ((w.rules ?? []) as Json[]).map((r) => ({
    operations: (r.operations ?? []) as string[],
    apiGroups: (r.apiGroups ?? []) as string[],
    apiVersions: (r.apiVersions ?? []) as string[],
    resources: (r.resources ?? []) as string[],
    scope: (r.scope as string | undefined) ?? "*",
  }));
  const name = String(w.name ?? "");
  return {
    uid: `${configuration}/${name}#${index}`,
    configuration,
    name,
    clientConfig: {
      ...(typeof client.url === "string" ? { url: client.url } : {}),
      ...(service
        ? {
            service: {
              namespace: String(service.namespace ?? ""),
              name: String(service.name ?? ""),
              ...(typeof service.path === "string" ? { path: service.path } : {}),
              port: typeof service.port === "number" ? service.port : 443,
            },
          }
        : {}),
      ...(typeof client.caBundle === "string" && client.caBundle !== "" ? { caBundle: client.caBundle } : {}),
    },
    rules,
    failurePolicy: w.failurePolicy === "Ignore" ? "Ignore" : "Fail",
    matchPolicy: w.matchPolicy === "Exact" ? "Exact" : "Equivalent",
    namespaceSelector: (w.namespaceSelector ?? {}) as LabelSelectorObject,
    objectSelector: (w.objectSelector ?? {}) as LabelSelectorObject,
    sideEffects: w.sideEffects as string | undefined,
    timeoutSeconds: typeof w.timeoutSeconds === "number" ? w.timeoutSeconds : 10,
    admissionReviewVersions: (w.admissionReviewVersions ?? []) as string[],
    reinvocationPolicy: w.reinvocationPolicy === "IfNeeded" ? "IfNeeded" : "Never",
    matchConditions: (w.matchConditions ?? []) as MatchCondition[],
  };
}

/** The webhooks of one kind, in the order upstream calls them. */
export function webhooksOf(kind: WebhookKind, ctx: AdmissionContext): Webhook[] {
  // Every write asks; nearly always there is no configuration, which the count says without a list.
  if (ctx.store.count(BUCKETS[kind]) === 0) return [];
  const configs = ctx.store.list(BUCKETS[kind], {}).items as Json[];
  const named = configs
    .map((c) => ({ name: String((c.metadata as Json | undefined)?.name ?? ""), c }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return named.flatMap(({ name, c }) => ((c.webhooks ?? []) as Json[]).map((w, i) => normalized(name, i, w)));
}
