/**
 * Small helpers for tool builders: ServiceAccount tokens, "can I?" access reviews, and resource
 * usage from metrics.k8s.io (typed here: the metrics API is served by an aggregated server, so it is
 * not part of the generated models).
 */
import type { authenticationV1, authorizationV1, metaV1 } from "@kubesdk/models";
import type { HttpTransport } from "@kubesdk/transport";
import { podPath } from "./logs.js";

export interface TokenOptions {
  readonly namespace?: string;
  readonly audiences?: readonly string[];
  readonly expirationSeconds?: number;
  /** Bind the token to an object (e.g. a Pod or Secret); it stops working when that object is gone. */
  readonly boundObjectRef?: authenticationV1.BoundObjectReference;
}

/** Requests a token for a ServiceAccount (`serviceaccounts/token`). */
export async function createServiceAccountToken(
  transport: HttpTransport,
  defaultNamespace: string,
  name: string,
  options: TokenOptions = {},
): Promise<authenticationV1.TokenRequest> {
  const namespace = options.namespace ?? defaultNamespace;
  const path = podPath(namespace, name, "token").replace("/pods/", "/serviceaccounts/");
  const body: authenticationV1.TokenRequest = {
    apiVersion: "authentication.k8s.io/v1",
    kind: "TokenRequest",
    spec: {
      ...(options.audiences !== undefined ? { audiences: [...options.audiences] } : {}),
      ...(options.expirationSeconds !== undefined ? { expirationSeconds: options.expirationSeconds } : {}),
      ...(options.boundObjectRef !== undefined ? { boundObjectRef: options.boundObjectRef } : {}),
    },
  };
  return (await transport.requestJson<authenticationV1.TokenRequest>({ method: "POST", path, body })).body;
}

/** What the caller may do, asked of the API server about itself. */
export class AccessReviews {
  readonly #transport: HttpTransport;

  /** @internal Reached as `kube.access`. */
  constructor(transport: HttpTransport) {
    this.#transport = transport;
  }

  /** The full SelfSubjectAccessReview answer for resource attributes. */
  async review(
    attributes: authorizationV1.ResourceAttributes,
  ): Promise<authorizationV1.SubjectAccessReviewStatus> {
    const body: authorizationV1.SelfSubjectAccessReview = {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectAccessReview",
      spec: { resourceAttributes: attributes },
    };
    const path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    const res = await this.#transport.requestJson<authorizationV1.SelfSubjectAccessReview>({
      method: "POST",
      path,
      body,
    });
    return res.body.status ?? { allowed: false };
  }

  /** Whether `verb` on `resource` is allowed, like `kubectl auth can-i`. */
  async can(
    verb: string,
    resource: string,
    options: Omit<authorizationV1.ResourceAttributes, "verb" | "resource"> = {},
  ): Promise<boolean> {
    return (await this.review({ ...options, verb, resource })).allowed === true;
  }

  /** The rules the caller has in a namespace (SelfSubjectRulesReview). */
  async rules(namespace: string): Promise<authorizationV1.SubjectRulesReviewStatus> {
    const body: authorizationV1.SelfSubjectRulesReview = {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectRulesReview",
      spec: { namespace },
    };
    const path = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";
    const res = await this.#transport.requestJson<authorizationV1.SelfSubjectRulesReview>({
      method: "POST",
      path,
      body,
    });
    return res.body.status ?? { resourceRules: [], nonResourceRules: [], incomplete: true };
  }
}

/** CPU and memory as quantities (e.g. `"250m"`, `"64Mi"`). */
export type ResourceUsage = Readonly<Record<string, string>>;

export interface NodeMetrics {
  readonly apiVersion: "metrics.k8s.io/v1beta1";
  readonly kind: "NodeMetrics";
  readonly metadata: metaV1.ObjectMeta;
  readonly timestamp: string;
  readonly window: string;
  readonly usage: ResourceUsage;
}

export interface ContainerMetrics {
  readonly name: string;
  readonly usage: ResourceUsage;
}

export interface PodMetrics {
  readonly apiVersion: "metrics.k8s.io/v1beta1";
  readonly kind: "PodMetrics";
  readonly metadata: metaV1.ObjectMeta;
  readonly timestamp: string;
  readonly window: string;
  readonly containers: readonly ContainerMetrics[];
}

interface MetricsList<T> {
  readonly items: readonly T[];
}

/** Usage from metrics.k8s.io/v1beta1 (needs metrics-server or another metrics API provider). */
export class MetricsClient {
  readonly #transport: HttpTransport;
  readonly #namespace: string;
  static readonly BASE = "/apis/metrics.k8s.io/v1beta1";

  /** @internal Reached as `kube.metrics`. */
  constructor(transport: HttpTransport, defaultNamespace: string) {
    this.#transport = transport;
    this.#namespace = defaultNamespace;
  }

  async nodes(options: { labelSelector?: string } = {}): Promise<readonly NodeMetrics[]> {
    return (await this.#get<MetricsList<NodeMetrics>>("/nodes", options.labelSelector)).items;
  }

  node(name: string): Promise<NodeMetrics> {
    return this.#get(`/nodes/${encodeURIComponent(name)}`);
  }

  /** Pods of a namespace (default: the client's), or of every namespace with `allNamespaces`. */
  async pods(
    options: { namespace?: string; allNamespaces?: boolean; labelSelector?: string } = {},
  ): Promise<readonly PodMetrics[]> {
    const path = options.allNamespaces
      ? "/pods"
      : `/namespaces/${encodeURIComponent(options.namespace ?? this.#namespace)}/pods`;
    return (await this.#get<MetricsList<PodMetrics>>(path, options.labelSelector)).items;
  }

  pod(name: string, options: { namespace?: string } = {}): Promise<PodMetrics> {
    const ns = encodeURIComponent(options.namespace ?? this.#namespace);
    return this.#get(`/namespaces/${ns}/pods/${encodeURIComponent(name)}`);
  }

  async #get<T>(path: string, labelSelector?: string): Promise<T> {
    const query = labelSelector !== undefined ? { labelSelector } : {};
    return (await this.#transport.requestJson<T>({ method: "GET", path: MetricsClient.BASE + path, query }))
      .body;
  }
}
