/**
 * The example's custom resource: a WebApp (image, replicas, port) that the operator runs as a
 * Deployment and a Service, reporting `Available` and `Reconciled` conditions in its status.
 */
import { established, type Kube, type ResourceClient } from "@kubesdk/client";
import type { KubernetesObject, metaV1 } from "@kubesdk/models";

export const GROUP = "example.kubesdk.io";
export const VERSION = "v1alpha1";
export const KIND = "WebApp";
export const PLURAL = "webapps";
export const API_VERSION = `${GROUP}/${VERSION}`;

export interface WebAppSpec {
  image: string;
  replicas?: number;
  port?: number;
}

export interface WebAppStatus {
  observedGeneration?: number;
  readyReplicas?: number;
  conditions?: metaV1.Condition[];
}

export interface WebApp extends KubernetesObject {
  spec: WebAppSpec;
  status?: WebAppStatus;
}

export function webApps(kube: Kube): ResourceClient<WebApp> {
  return kube.custom<WebApp>({
    group: GROUP,
    version: VERSION,
    plural: PLURAL,
    kind: KIND,
    namespaced: true,
    subresources: ["status"],
  });
}

const conditionSchema = {
  type: "object",
  required: ["type", "status", "lastTransitionTime", "reason", "message"],
  properties: {
    type: { type: "string" },
    status: { type: "string", enum: ["True", "False", "Unknown"] },
    observedGeneration: { type: "integer" },
    lastTransitionTime: { type: "string", format: "date-time" },
    reason: { type: "string" },
    message: { type: "string" },
  },
};

/** The CustomResourceDefinition of WebApp. */
export const webAppCrd = {
  apiVersion: "apiextensions.k8s.io/v1" as const,
  kind: "CustomResourceDefinition" as const,
  metadata: { name: `${PLURAL}.${GROUP}` },
  spec: {
    group: GROUP,
    scope: "Namespaced",
    names: { plural: PLURAL, singular: "webapp", kind: KIND, listKind: `${KIND}List` },
    versions: [
      {
        name: VERSION,
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                required: ["image"],
                properties: {
                  image: { type: "string" },
                  replicas: { type: "integer", minimum: 0 },
                  port: { type: "integer", minimum: 1, maximum: 65535 },
                },
              },
              status: {
                type: "object",
                properties: {
                  observedGeneration: { type: "integer" },
                  readyReplicas: { type: "integer" },
                  conditions: {
                    type: "array",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["type"],
                    items: conditionSchema,
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
};

/** Installs (or finds) the CRD and resolves once it is Established. */
export async function installWebAppCrd(kube: Kube): Promise<void> {
  const crds = kube.resource("apiextensions.k8s.io/v1", "CustomResourceDefinition");
  await crds.apply(webAppCrd, { fieldManager: "webapp-operator", force: true });
  await kube.waitFor(crds, webAppCrd.metadata.name, established());
}
