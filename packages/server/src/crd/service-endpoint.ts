/**
 * Resolves a webhook's `service` reference the way the pod proxy resolves a Service
 * (pods/service-proxy.ts): the Service's port with that number names a target port; a ready
 * endpoint of one of the Service's EndpointSlices (label `kubernetes.io/service-name`) with a port of
 * that name gives the address. EndpointSlices are written by whoever created the Service.
 */
import type { ResourceTable } from "../resources/table.js";
import type { MvccStore } from "../storage/mvcc.js";
import type { ServiceRef, ServiceResolver } from "./conversion-webhook.js";
import { isObject } from "./json-schema.js";

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

export function serviceResolver(
  store: Pick<MvccStore, "get" | "list">,
  resources: ResourceTable,
): ServiceResolver {
  return (ref: ServiceRef) => {
    const services = resources.find("", "v1", "services");
    const service = services ? store.get(services.bucket, `${ref.namespace}/${ref.name}`) : undefined;
    if (!service) return `service "${ref.name}" not found`;
    const spec = isObject((service as Json).spec) ? ((service as Json).spec as Json) : {};
    const port = list(spec.ports).find((p) => p.port === ref.port);
    if (!port) return `service "${ref.name}" has no port ${ref.port}`;
    const portName = typeof port.name === "string" ? port.name : "";
    const slices = resources.find("discovery.k8s.io", "v1", "endpointslices");
    const all = slices ? (store.list(slices.bucket, { prefix: `${ref.namespace}/` }).items as Json[]) : [];
    for (const slice of all) {
      const labels = isObject(slice.metadata) && isObject(slice.metadata.labels) ? slice.metadata.labels : {};
      if (labels["kubernetes.io/service-name"] !== ref.name) continue;
      const p = list(slice.ports).find((x) => (x.name ?? "") === portName);
      const ready = list(slice.endpoints).find(
        (e) => !(isObject(e.conditions) && e.conditions.ready === false),
      );
      const address = ready && Array.isArray(ready.addresses) ? ready.addresses[0] : undefined;
      if (typeof p?.port === "number" && typeof address === "string") return { host: address, port: p.port };
    }
    return `no endpoints available for service "${ref.name}"`;
  };
}
