/**
 * The objects that register a webhook server with the API server: a ValidatingWebhookConfiguration
 * and a MutatingWebhookConfiguration with one webhook per registered handler, and the `conversion`
 * stanza of a CRD (or the whole CRD of a definition with it). Each carries the server's CA as
 * `caBundle` and points at the server by `url` (development, a process outside the cluster) or
 * by `service` (in-cluster).
 */
import type { CustomResourceDefinitionManifest, CustomResourceDefinitionOf } from "@kubesdk/client";
import type { admissionregistrationV1 } from "@kubesdk/models";
import type { AdmissionRegistration } from "./registry.js";
import { CONVERSION_PATH } from "./registry.js";

/** Where the API server reaches the webhook server: a base URL, or a Service in the cluster. */
export type WebhookEndpoint =
  | { readonly url: string; readonly caBundle: string }
  | {
      readonly service: { readonly namespace: string; readonly name: string; readonly port?: number };
      readonly caBundle: string;
    };

export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; port?: number; path: string };
  caBundle: string;
}

export function clientConfigFor(endpoint: WebhookEndpoint, path: string): WebhookClientConfig {
  if ("url" in endpoint) return { url: endpoint.url.replace(/\/$/, "") + path, caBundle: endpoint.caBundle };
  return { service: { ...endpoint.service, path }, caBundle: endpoint.caBundle };
}

/** A ValidatingWebhookConfiguration as the helpers build it: ready to create or apply. */
export type ValidatingConfiguration = admissionregistrationV1.ValidatingWebhookConfiguration & {
  apiVersion: "admissionregistration.k8s.io/v1";
  kind: "ValidatingWebhookConfiguration";
  metadata: { name: string };
  webhooks: admissionregistrationV1.ValidatingWebhook[];
};

/** A MutatingWebhookConfiguration as the helpers build it: ready to create or apply. */
export type MutatingConfiguration = admissionregistrationV1.MutatingWebhookConfiguration & {
  apiVersion: "admissionregistration.k8s.io/v1";
  kind: "MutatingWebhookConfiguration";
  metadata: { name: string };
  webhooks: admissionregistrationV1.MutatingWebhook[];
};

function webhookOf(
  r: AdmissionRegistration,
  endpoint: WebhookEndpoint,
): admissionregistrationV1.MutatingWebhook {
  const { target: t, options: o } = r;
  const resources = [t.resource, ...(o.subresources ?? []).map((s) => `${t.resource}/${s}`)];
  return {
    name: r.name,
    clientConfig: clientConfigFor(endpoint, r.path),
    rules: [
      {
        apiGroups: [t.group],
        apiVersions: [t.version],
        resources,
        operations: [...(o.operations ?? ["CREATE", "UPDATE"])],
        scope: t.namespaced ? "Namespaced" : "Cluster",
      },
    ],
    // The API server converts objects of other versions to this one before calling.
    matchPolicy: "Equivalent",
    failurePolicy: o.failurePolicy ?? "Fail",
    sideEffects: o.sideEffects ?? "None",
    timeoutSeconds: o.timeoutSeconds ?? 10,
    admissionReviewVersions: ["v1"],
    ...(o.namespaceSelector !== undefined ? { namespaceSelector: o.namespaceSelector as LabelSelector } : {}),
    ...(o.objectSelector !== undefined ? { objectSelector: o.objectSelector as LabelSelector } : {}),
    // A mutation may enable another mutating webhook's match: ask to be called again then.
    ...(r.type === "mutating" ? { reinvocationPolicy: "IfNeeded" } : {}),
  };
}

type LabelSelector = NonNullable<admissionregistrationV1.MutatingWebhook["objectSelector"]>;

export function validatingConfiguration(
  name: string,
  registrations: readonly AdmissionRegistration[],
  endpoint: WebhookEndpoint,
): ValidatingConfiguration {
  const webhooks = registrations.filter((r) => r.type === "validating").map((r) => webhookOf(r, endpoint));
  return {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingWebhookConfiguration",
    metadata: { name },
    webhooks,
  };
}

export function mutatingConfiguration(
  name: string,
  registrations: readonly AdmissionRegistration[],
  endpoint: WebhookEndpoint,
): MutatingConfiguration {
  const webhooks = registrations.filter((r) => r.type === "mutating").map((r) => webhookOf(r, endpoint));
  return {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "MutatingWebhookConfiguration",
    metadata: { name },
    webhooks,
  };
}

/** `spec.conversion` of a CRD whose versions a webhook converts. */
export function conversionStanza(endpoint: WebhookEndpoint, path = CONVERSION_PATH) {
  return {
    strategy: "Webhook" as const,
    webhook: { clientConfig: clientConfigFor(endpoint, path), conversionReviewVersions: ["v1"] },
  };
}

/** The definition's CRD with its conversion done by the webhook at `endpoint`. */
export function manifestWithConversion(
  definition: CustomResourceDefinitionOf,
  endpoint: WebhookEndpoint,
  path = CONVERSION_PATH,
): CustomResourceDefinitionManifest {
  const manifest = definition.manifest();
  return { ...manifest, spec: { ...manifest.spec, conversion: conversionStanza(endpoint, path) } };
}
