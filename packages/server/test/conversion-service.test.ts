import { describe, expect, it } from "vitest";
import { webhookTarget } from "../src/crd/conversion-webhook.js";
import { serviceResolver } from "../src/crd/service-endpoint.js";
import type { ResourceTable } from "../src/resources/table.js";
import type { MvccStore } from "../src/storage/mvcc.js";

type Json = Record<string, unknown>;

/** A store holding one Service and its EndpointSlices, read through the two calls the resolver makes. */
function fixture(slices: Json[]) {
  const service = {
    metadata: { name: "conv", namespace: "ns" },
    spec: { ports: [{ name: "https", port: 443, targetPort: 9443 }] },
  };
  const store = {
    get: (bucket: string, key: string) => (bucket === "services" && key === "ns/conv" ? service : undefined),
    list: (bucket: string) => ({ items: bucket === "endpointslices" ? slices : [] }),
  } as unknown as Pick<MvccStore, "get" | "list">;
  const resources = {
    find: (_g: string, _v: string, resource: string) => ({ bucket: resource }),
  } as unknown as ResourceTable;
  return serviceResolver(store, resources);
}

const slice = (ready: boolean, address: string, portName = "https") => ({
  metadata: { name: `conv-${address}`, namespace: "ns", labels: { "kubernetes.io/service-name": "conv" } },
  ports: [{ name: portName, port: 9443 }],
  endpoints: [{ addresses: [address], conditions: { ready } }],
});

describe("conversion webhook by service", () => {
  it("reaches a ready endpoint of the service's slices on the named port, verified as the service's name", () => {
    const resolve = fixture([slice(false, "10.0.0.1"), slice(true, "127.0.0.1")]);
    const target = webhookTarget(
      {
        service: { namespace: "ns", name: "conv", path: "/convert" },
        caBundle: Buffer.from("CA").toString("base64"),
      },
      resolve,
    );
    expect(target).toMatchObject({ connect: { host: "127.0.0.1", port: 9443 }, ca: "CA" });
    expect(typeof target === "string" ? target : target.url.href).toBe(
      "https://conv.ns.svc/convert?timeout=30s",
    );
  });

  it("names a shorter call limit in the URL and gives it to the call (the conversionWebhookTimeoutMs setting)", () => {
    const target = webhookTarget({ url: "https://127.0.0.1:9443/convert" }, fixture([]), 5_000);
    expect(target).toMatchObject({ timeoutMs: 5_000 });
    expect(typeof target === "string" ? target : target.url.href).toBe(
      "https://127.0.0.1:9443/convert?timeout=5s",
    );
  });

  it("names what is missing: the service, its port, a ready endpoint", () => {
    expect(webhookTarget({ service: { namespace: "ns", name: "other" } }, fixture([]))).toBe(
      'service "other" not found',
    );
    expect(webhookTarget({ service: { namespace: "ns", name: "conv", port: 8443 } }, fixture([]))).toBe(
      'service "conv" has no port 8443',
    );
    expect(
      webhookTarget({ service: { namespace: "ns", name: "conv" } }, fixture([slice(false, "1.2.3.4")])),
    ).toBe('no endpoints available for service "conv"');
  });
});
