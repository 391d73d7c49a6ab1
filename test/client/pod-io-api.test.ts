/**
 * The parts of pod I/O that the API server itself answers, so they run against both targets:
 * eviction (with and without a PodDisruptionBudget), refused upgrades of exec, attach and
 * port-forward for a pod that does not exist (the Status comes back as an ApiError), access
 * reviews and ServiceAccount tokens.
 */
import type { PodIoError } from "@kubesdk/client";
import { ApiError, isNotFound, isTooManyRequests } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { createPod, podSuite } from "./pod-io-support.js";

function connectOnce(port: number): Promise<void> {
  return import("node:net").then(
    ({ connect }) =>
      new Promise((resolve) => {
        const socket = connect(port, "127.0.0.1");
        socket.on("error", () => resolve());
        socket.on("close", () => resolve());
        socket.write("x");
      }),
  );
}

describe("pod I/O answered by the API server", () => {
  // No kubelet: pods stay unscheduled, so a delete (eviction) removes them at once instead of
  // waiting for a kubelet to confirm the graceful termination.
  const s = podSuite("podapi", {}, false);

  it("evicts a pod, and refuses with 429 when a PodDisruptionBudget allows no disruption", async () => {
    await createPod(s.kube, "db-0", ["main"], { app: "db" });
    await createPod(s.kube, "free", ["main"], { app: "free" });
    // Only running pods are protected by budgets.
    await s.kube.resource("v1", "Pod").status.patch("db-0", {
      type: "merge",
      patch: { status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }] } },
    });
    // Without a disruption controller (the real apiserver alone) the budget is never processed,
    // which blocks evictions too; the reference server computes it: 1 healthy of minAvailable 1.
    await s.kube.resource("policy/v1", "PodDisruptionBudget").create({
      metadata: { name: "db" },
      spec: { minAvailable: 1, selector: { matchLabels: { app: "db" } } },
    });
    const blocked = await s.kube.pods.evict("db-0").catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(ApiError);
    expect(isTooManyRequests(blocked)).toBe(true);
    await s.kube.pods.evict("free");
    expect(
      isNotFound(
        await s.kube
          .resource("v1", "Pod")
          .get("free")
          .catch((e: unknown) => e),
      ),
    ).toBe(true);
    expect(isNotFound(await s.kube.pods.evict("free").catch((e: unknown) => e))).toBe(true);
  });

  it("rejects exec, attach and logs of a missing pod with the server's 404 Status", async () => {
    for (const attempt of [
      () => s.kube.pods.exec("ghost", ["echo"]),
      () => s.kube.pods.attach("ghost", { stdin: true }),
      () => s.kube.pods.log("ghost"),
    ]) {
      const err = await attempt().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(isNotFound(err)).toBe(true);
    }
  });

  it("reports a port-forward to a missing pod through onError", async () => {
    const errors: PodIoError[] = [];
    const forward = await s.kube.pods.portForward("ghost", 80, { onError: (e) => errors.push(e) });
    await connectOnce(forward.ports[0]?.local as number);
    await forward.close();
    expect(errors).toHaveLength(1);
    expect(isNotFound(errors[0]?.cause)).toBe(true);
  });

  it("answers access reviews and issues ServiceAccount tokens the server accepts", async () => {
    expect(await s.kube.access.can("get", "pods", { namespace: s.ns })).toBe(true);
    const review = await s.kube.access.review({ verb: "create", resource: "deployments", group: "apps" });
    expect(review.allowed).toBe(true);
    expect((await s.kube.access.rules(s.ns)).resourceRules?.length).toBeGreaterThan(0);

    await s.kube.resource("v1", "ServiceAccount").create({ metadata: { name: "builder" } });
    const request = await s.kube.serviceAccountToken("builder", { expirationSeconds: 3600 });
    const token = request.status?.token as string;
    expect(token.length).toBeGreaterThan(10);
    expect(Date.parse(request.status?.expirationTimestamp as string)).toBeGreaterThan(Date.now());
    const ssar = {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectAccessReview",
      spec: { resourceAttributes: { verb: "get", resource: "pods", namespace: s.ns } },
    };
    const path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    const headers = (t: string) => ({
      anonymous: true,
      body: ssar,
      headers: { authorization: `Bearer ${t}` },
    });
    // The issued token authenticates (201); a made-up one does not (401).
    expect((await s.t.call("POST", path, headers(token))).status).toBe(201);
    expect((await s.t.call("POST", path, headers("not-a-token"))).status).toBe(401);
    const missing = await s.kube.serviceAccountToken("ghost").catch((e: unknown) => e);
    expect(isNotFound(missing)).toBe(true);
  });
});
