/**
 * The example's custom resource, written once: a WebApp (image, replicas, port) that the operator
 * runs as a Deployment and a Service, reporting `Available` and `Reconciled` conditions in its
 * status. The one `defineCustomResource` definition gives the object types of both versions, the
 * CRD (schemas, CEL rule, printer columns, status subresource) and the typed client; the
 * operator's webhook server adds the CRD's conversion stanza (see webhooks.ts).
 */
import {
  CrdType,
  type CustomResourceOf,
  defineCustomResource,
  established,
  type Kube,
} from "@kubesdk/client";
import type { WebhookServer } from "@kubesdk/controller";
import Type from "typebox";

/** A rule OpenAPI cannot say (it relates two fields), checked by the API server in both versions. */
const scaleRule = {
  rule: "!has(self.replicas) || self.replicas <= 10 || self.image.contains('@')",
  message: "more than 10 replicas need an image pinned by digest (name@sha256:...)",
};

const status = Type.Optional(
  Type.Object({
    observedGeneration: Type.Optional(Type.Integer()),
    readyReplicas: Type.Optional(Type.Integer()),
    conditions: Type.Optional(CrdType.Conditions()),
  }),
);

const image = Type.String({ minLength: 1, description: "The container image: name:tag or name@digest." });
const replicas = Type.Optional(Type.Integer({ minimum: 0, description: "Pods to run (default 1)." }));
const port = Type.Integer({ minimum: 1, maximum: 65535, description: "The port the container listens on." });

const columns = (portPath: string) =>
  [
    { name: "Image", type: "string", jsonPath: ".spec.image" },
    { name: "Replicas", type: "integer", jsonPath: ".spec.replicas" },
    { name: "Ready", type: "integer", jsonPath: ".status.readyReplicas" },
    { name: "Port", type: "integer", jsonPath: portPath, priority: 1 },
    { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
  ] as const;

export const webAppDefinition = defineCustomResource({
  group: "example.kubesdk.io",
  kind: "WebApp",
  scope: "Namespaced",
  shortNames: ["wa"],
  subresources: { status: true },
  versions: {
    // The first shape: the port at the top of spec. Still served; converted by the operator.
    v1alpha1: {
      printerColumns: columns(".spec.port"),
      schema: Type.Object({
        spec: Type.Object(
          { image, replicas, port: Type.Optional(port) },
          { "x-kubernetes-validations": [scaleRule] },
        ),
        status,
      }),
    },
    // The stored shape: HTTP settings grouped under `http`.
    v1: {
      storage: true,
      printerColumns: columns(".spec.http.port"),
      schema: Type.Object({
        spec: Type.Object(
          { image, replicas, http: Type.Optional(Type.Object({ port })) },
          { "x-kubernetes-validations": [scaleRule] },
        ),
        status,
      }),
    },
  },
});

/** The stored version's object type, inferred from its schema. */
export type WebApp = CustomResourceOf<typeof webAppDefinition, "v1">;
export type WebAppV1alpha1 = CustomResourceOf<typeof webAppDefinition, "v1alpha1">;
export type WebAppStatus = NonNullable<WebApp["status"]>;

export const GROUP = webAppDefinition.group;
export const KIND = webAppDefinition.kind;
export const API_VERSION = `${GROUP}/v1` as const;
export const SCALE_RULE_MESSAGE = scaleRule.message;

/** The typed client of one version (default v1, the stored one). */
export function webApps(kube: Kube) {
  return kube.custom(webAppDefinition);
}

/**
 * Applies the CRD and resolves once it is Established. With the operator's webhook server (started,
 * so its CA is known) the CRD converts through it; without one, it carries no conversion stanza:
 * only for servers where nothing reads the old version (the fault suite's embedded servers).
 */
export async function installWebAppCrd(
  kube: Kube,
  webhooks?: WebhookServer,
  endpoint?: Parameters<WebhookServer["endpoint"]>[0],
): Promise<void> {
  const crds = kube.resource("apiextensions.k8s.io/v1", "CustomResourceDefinition");
  const crd = webhooks
    ? webhooks.customResourceDefinition(webAppDefinition, endpoint)
    : webAppDefinition.manifest();
  await crds.apply(crd, { fieldManager: "webapp-operator", conflicts: "force" });
  await kube.waitFor(crds, webAppDefinition.name, established());
}
