/**
 * Where a Service's traffic goes, read the way kube-apiserver's endpoint resolver reads it: the
 * EndpointSlices labelled `kubernetes.io/service-name`, the ready endpoints of a slice that has the
 * wanted port name. The services proxy (pods/service-proxy.ts) and admission webhooks called by
 * `service` (admission/webhooks/) both resolve through here.
 */
type Json = Record<string, unknown>;

export interface ServicePort {
  readonly name?: string;
  readonly port?: number;
}

export interface ReadyEndpoint {
  readonly address: string;
  /** The endpoint port (the slice's port of the wanted name). */
  readonly port: number;
  readonly targetRef?: { readonly kind?: string; readonly name?: string; readonly namespace?: string };
}

/** The name of the Service port numbered `port` (`undefined`: the Service has no such port). */
export function servicePortName(service: Json, port: number | string): string | undefined {
  const ports = ((service.spec as Json | undefined)?.ports ?? []) as ServicePort[];
  const found = ports.find((p) => String(p.port) === String(port));
  return found ? (found.name ?? "") : undefined;
}

/** Ready endpoints of `service` among `slices` (one namespace's EndpointSlices) for port `portName`. */
export function readyEndpoints(slices: readonly Json[], service: string, portName: string): ReadyEndpoint[] {
  const out: ReadyEndpoint[] = [];
  for (const slice of slices) {
    const labels = ((slice.metadata as Json | undefined)?.labels ?? {}) as Record<string, string>;
    if (labels["kubernetes.io/service-name"] !== service) continue;
    const p = ((slice.ports ?? []) as ServicePort[]).find((x) => (x.name ?? "") === portName);
    if (p?.port === undefined) continue;
    const endpoints = (slice.endpoints ?? []) as {
      addresses?: string[];
      conditions?: { ready?: boolean };
      targetRef?: ReadyEndpoint["targetRef"];
    }[];
    for (const e of endpoints) {
      if (e.conditions?.ready === false) continue;
      const address = e.addresses?.[0];
      if (address === undefined) continue;
      out.push({ address, port: p.port, ...(e.targetRef ? { targetRef: e.targetRef } : {}) });
    }
  }
  return out;
}
