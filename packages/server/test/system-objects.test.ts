/**
 * The objects a start commits directly (src/system-objects.ts) are what the write path stores for
 * the requests kube-apiserver makes for them: the same fields in the same order, the same
 * managedFields, the same revisions, at the same clock. Only the uids are random on both sides.
 */
import { describe, expect, it } from "vitest";
import {
  bootstrap,
  bootstrapDefaultServiceCidr,
  bootstrapKubernetesService,
  bootstrapSystemConfigMaps,
  bootstrapSystemPriorityClasses,
} from "../src/bootstrap.js";
import { DEFAULT_SETTINGS, type HandlerContext } from "../src/endpoints/handlers/context.js";
import { createObject, updateObject } from "../src/endpoints/handlers/write.js";
import { builtinResourceTable } from "../src/registry/index.js";
import { MvccStore } from "../src/storage/mvcc.js";
import { recorded } from "./support/recorded-events.js";

/** A clock inside a second, so a timestamp that kept its milliseconds would differ. */
const NOW = Date.UTC(2026, 11, 7, 3, 4, 5, 678);
const CA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const PORT = 40123;

function context(): HandlerContext {
  return {
    store: new MvccStore(),
    resources: builtinResourceTable(),
    settings: DEFAULT_SETTINGS,
    now: () => NOW,
  };
}

/** The requests kube-apiserver makes for its own objects at start, through the write path, in a start's order. */
async function throughWritePath(ctx: HandlerContext): Promise<void> {
  const find = (group: string, plural: string) => {
    const r = ctx.resources.find(group, "v1", plural);
    if (!r) throw new Error(`no ${plural}`);
    return r;
  };
  const write = (
    group: string,
    plural: string,
    namespace: string | undefined,
    body: Record<string, unknown>,
  ) =>
    createObject(ctx, find(group, plural), {
      namespace,
      query: new URLSearchParams(),
      body,
      userAgent: "kube-apiserver",
    });
  await write("scheduling.k8s.io", "priorityclasses", undefined, {
    metadata: { name: "system-node-critical" },
    value: 2_000_001_000,
    description: "Used for system critical pods that must not be moved from their current node.",
  });
  await write("scheduling.k8s.io", "priorityclasses", undefined, {
    metadata: { name: "system-cluster-critical" },
    value: 2_000_000_000,
    description:
      "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
  });
  for (const name of ["default", "kube-system", "kube-public", "kube-node-lease"])
    await createObject(ctx, find("", "namespaces"), {
      namespace: undefined,
      query: new URLSearchParams(),
      body: { metadata: { name } },
    });
  await write("", "configmaps", "kube-system", {
    metadata: { name: "extension-apiserver-authentication" },
    data: { "client-ca-file": CA },
  });
  await write("", "configmaps", "kube-system", {
    metadata: { name: "kube-apiserver-legacy-service-account-token-tracking" },
    data: { since: "2026-12-07" },
  });
  await write("", "services", "default", {
    metadata: { name: "kubernetes", labels: { component: "apiserver", provider: "kubernetes" } },
    spec: {
      type: "ClusterIP",
      clusterIP: "10.96.0.1",
      sessionAffinity: "None",
      ports: [{ name: "https", port: 443, protocol: "TCP", targetPort: PORT }],
    },
  });
  const cidrs = find("networking.k8s.io", "servicecidrs");
  const created = await write("networking.k8s.io", "servicecidrs", undefined, {
    metadata: { name: "kubernetes" },
    spec: { cidrs: ["10.96.0.0/12"] },
  });
  const ready = {
    type: "Ready",
    status: "True",
    lastTransitionTime: "2026-12-07T03:04:05Z",
    reason: "",
    message: "Kubernetes default Service CIDR is ready",
  };
  await updateObject(ctx, cidrs, {
    namespace: undefined,
    name: "kubernetes",
    subresource: "status",
    query: new URLSearchParams(),
    userAgent: "kube-apiserver",
    body: { ...(created.body as Record<string, unknown>), status: { conditions: [ready] } },
  });
}

describe("system objects committed at start", () => {
  it("are stored as the write path stores kube-apiserver's requests for them", async () => {
    const written = context();
    await throughWritePath(written);
    const direct = context();
    bootstrapSystemPriorityClasses(direct);
    expect(await bootstrap(direct, [])).toEqual([]);
    bootstrapSystemConfigMaps(direct, CA);
    bootstrapKubernetesService(direct, PORT);
    bootstrapDefaultServiceCidr(direct);
    expect(recorded(direct)).toEqual(recorded(written));
    expect(recorded(direct)).toHaveLength(11);
  });

  it("leave out the client CA ConfigMap over plain HTTP", () => {
    const direct = context();
    bootstrapSystemConfigMaps(direct, undefined);
    expect(direct.store.eventsSince(0).map((e) => e.key)).toEqual([
      "kube-system/kube-apiserver-legacy-service-account-token-tracking",
    ]);
  });
});
