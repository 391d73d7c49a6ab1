/**
 * A Service with one endpoint written by hand, as on a cluster without endpoint controllers: the
 * Service (one named port), an EndpointSlice (what kube-apiserver 1.37 resolves services/proxy and
 * aggregated APIs from) and Endpoints (what older releases read), all naming `ip:targetPort` and,
 * when given, the pod behind it.
 */
import { expectOk } from "./kubelet.js";
import type { TestTarget } from "./target.js";

export interface ServiceEndpoint {
  readonly namespace: string;
  readonly name: string;
  /** The Service port's name and number. */
  readonly port: { readonly name: string; readonly port: number };
  /** The endpoint's address and port. */
  readonly ip: string;
  readonly targetPort: number;
  /** The pod the endpoint is (its IP must be `ip` for the apiserver's services/proxy). */
  readonly pod?: string;
}

export async function createServiceEndpoint(t: TestTarget, s: ServiceEndpoint): Promise<void> {
  const { namespace, name, ip } = s;
  const targetRef = s.pod !== undefined ? { targetRef: { kind: "Pod", name: s.pod, namespace } } : {};
  const port = { name: s.port.name, port: s.targetPort, protocol: "TCP" };
  const base = `/api/v1/namespaces/${namespace}`;
  const spec = { ports: [{ ...s.port, protocol: "TCP", targetPort: s.targetPort }] };
  await expectOk(
    `service ${name}`,
    t.call("POST", `${base}/services`, { body: { metadata: { name }, spec } }),
  );
  await expectOk(
    `endpointslice ${name}`,
    t.call("POST", `/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices`, {
      body: {
        metadata: { name, labels: { "kubernetes.io/service-name": name } },
        addressType: "IPv4",
        endpoints: [{ addresses: [ip], conditions: { ready: true }, ...targetRef }],
        ports: [port],
      },
    }),
  );
  const subsets = [{ addresses: [{ ip, ...targetRef }], ports: [port] }];
  await expectOk(
    `endpoints ${name}`,
    t.call("POST", `${base}/endpoints`, { body: { metadata: { name }, subsets } }),
  );
}
