/**
 * The Widget custom resource workload of the controller benchmarks: the CRD, a typed client for it,
 * and seeding N objects into one namespace (32 creates in flight).
 */
import type { Kube } from "@kubesdk/client";
import type { KubernetesObject } from "@kubesdk/models";

export const NAMESPACE = "bench";
export const GROUP = "bench.kubesdk.io";

export interface Widget extends KubernetesObject {
  spec: { size: number };
  status?: { observedGeneration?: number };
}

export function widgets(kube: Kube) {
  return kube.custom<Widget>({
    group: GROUP,
    version: "v1",
    plural: "widgets",
    kind: "Widget",
    namespaced: true,
    subresources: ["status"],
  });
}

export const widgetCrd = {
  apiVersion: "apiextensions.k8s.io/v1" as const,
  kind: "CustomResourceDefinition" as const,
  metadata: { name: `widgets.${GROUP}` },
  spec: {
    group: GROUP,
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: { type: "object", properties: { size: { type: "integer" } } },
              status: { type: "object", properties: { observedGeneration: { type: "integer" } } },
            },
          },
        },
      },
    ],
  },
};

/** Creates the CRD, the namespace and `count` widgets; creates are retried while the CRD settles. */
export async function seedWidgets(kube: Kube, count: number): Promise<void> {
  await kube.resource("apiextensions.k8s.io/v1", "CustomResourceDefinition").create(widgetCrd);
  await kube.resource("v1", "Namespace").create({ metadata: { name: NAMESPACE } });
  const resource = widgets(kube);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const obj: Widget = {
        apiVersion: `${GROUP}/v1`,
        kind: "Widget",
        metadata: { name: `w-${i}` },
        spec: { size: i },
      };
      for (let attempt = 0; ; attempt++) {
        try {
          await resource.create(obj, { namespace: NAMESPACE });
          break;
        } catch (err) {
          // A real kube-apiserver serves a new CRD's resource only once it is established.
          if (attempt > 100) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}
