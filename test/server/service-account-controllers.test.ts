/**
 * The reference server's stand-ins for kube-controller-manager's `serviceaccount` controller and
 * root CA publisher (packages/server/src/controllers/service-account-controller.ts,
 * root-ca-publisher.ts). Reference only, by necessity: kube-apiserver in test:real runs without
 * kube-controller-manager, so there nobody makes these objects (scripts/components runs the real
 * controller-manager against both servers). Every namespace gets a `default` ServiceAccount and a
 * `kube-root-ca.crt` ConfigMap holding the CA of the server's certificate, both made again when
 * deleted or changed; with `controllers: false` neither appears.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, targetKind, uniqueName } from "../support/target.js";
import { openWatch, type WatchEventJson } from "../support/watch-client.js";

const DESCRIPTION =
  "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

/** Watches `path` (from the current state) until an event matches; returns that event's object. */
async function seen(t: TestTarget, path: string, pred: (e: WatchEventJson) => boolean) {
  const w = await openWatch(t, `${path}?watch=1`);
  try {
    const events = await w.until(pred);
    return events[events.length - 1]?.object;
  } finally {
    await w.close();
  }
}

const named = (type: string, name: string) => (e: WatchEventJson) =>
  e.type === type && e.object.metadata.name === name;

describe.runIf(targetKind === "reference")(
  "the reference server's ServiceAccount controller and root CA publisher (test:real has no kube-controller-manager)",
  () => {
    let t: TestTarget;
    let ns: string;
    beforeAll(async () => {
      t = await startTarget();
      ns = uniqueName("sa-controllers");
      const made = await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
      expect(made.status, made.text).toBe(201);
    });
    afterAll(async () => {
      await t.call("DELETE", `/api/v1/namespaces/${ns}`);
      await t.close();
    });

    it("gives a new namespace its default ServiceAccount, and makes it again when deleted", async () => {
      const accounts = `/api/v1/namespaces/${ns}/serviceaccounts`;
      const first = await seen(t, accounts, named("ADDED", "default"));
      expect(first.metadata.namespace).toBe(ns);
      const w = await openWatch(t, `${accounts}?watch=1&resourceVersion=${first.metadata.resourceVersion}`);
      const deleted = await t.call("DELETE", `${accounts}/default`);
      expect(deleted.status, deleted.text).toBe(200);
      const events = await w.until(named("ADDED", "default"));
      await w.close();
      expect(events.map((e) => e.type)).toEqual(["DELETED", "ADDED"]);
      expect(events[1]?.object.metadata.uid).not.toBe(first.metadata.uid);
    });

    it("publishes the server's CA as kube-root-ca.crt in every namespace, existing ones included", async () => {
      for (const namespace of [ns, "default", "kube-system"]) {
        const cm = await seen(
          t,
          `/api/v1/namespaces/${namespace}/configmaps`,
          named("ADDED", "kube-root-ca.crt"),
        );
        expect(cm.data).toEqual({ "ca.crt": t.ca });
        expect(cm.metadata.annotations).toEqual({ "kubernetes.io/description": DESCRIPTION });
      }
      const account = await t.call("GET", "/api/v1/namespaces/kube-system/serviceaccounts/default");
      expect(account.status, account.text).toBe(200);
    });

    it("puts kube-root-ca.crt back when it is changed or deleted", async () => {
      const configMaps = `/api/v1/namespaces/${ns}/configmaps`;
      const cm = await seen(t, configMaps, named("ADDED", "kube-root-ca.crt"));
      const w = await openWatch(t, `${configMaps}?watch=1&resourceVersion=${cm.metadata.resourceVersion}`);
      const changed = await t.call("PUT", `${configMaps}/kube-root-ca.crt`, {
        body: {
          ...cm,
          metadata: { ...cm.metadata, labels: { kept: "yes" } },
          data: { "ca.crt": "forged", more: "x" },
        },
      });
      expect(changed.status, changed.text).toBe(200);
      const repaired = await w.until((e) => e.type === "MODIFIED" && e.object.data["ca.crt"] === t.ca);
      expect(repaired.at(-1)?.object.data).toEqual({ "ca.crt": t.ca });
      expect(repaired.at(-1)?.object.metadata.labels).toEqual({ kept: "yes" });
      const deleted = await t.call("DELETE", `${configMaps}/kube-root-ca.crt`);
      expect(deleted.status, deleted.text).toBe(200);
      const again = await w.until(named("ADDED", "kube-root-ca.crt"));
      await w.close();
      expect(again.at(-1)?.object.data).toEqual({ "ca.crt": t.ca });
    });

    it("admits a pod created right after its namespace: admission waits for the default account", async () => {
      const fresh = uniqueName("sa-fresh");
      expect(
        (await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: fresh } } })).status,
      ).toBe(201);
      const pod = await t.call("POST", `/api/v1/namespaces/${fresh}/pods`, {
        body: { metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "x" }] } },
      });
      expect(pod.status, pod.text).toBe(201);
      expect(pod.json.spec.serviceAccountName).toBe("default");
      await t.call("DELETE", `/api/v1/namespaces/${fresh}`);
    });
  },
);

describe.runIf(targetKind === "reference")(
  "the reference server with controllers off (a real kube-controller-manager's job, as in test:components)",
  () => {
    let t: TestTarget;
    beforeAll(async () => {
      t = await startTarget({ controllers: false });
    });
    afterAll(() => t.close());

    it("makes no default ServiceAccount or kube-root-ca.crt, so pods are refused until one exists", async () => {
      expect((await t.call("GET", "/api/v1/namespaces/default/serviceaccounts/default")).status).toBe(404);
      expect((await t.call("GET", "/api/v1/namespaces/default/configmaps/kube-root-ca.crt")).status).toBe(
        404,
      );
      const pod = await t.call("POST", "/api/v1/namespaces/default/pods", {
        body: { metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "x" }] } },
      });
      expect(pod.status, pod.text).toBe(403);
      expect(pod.json.message).toBe(
        'pods "p" is forbidden: error looking up service account default/default: serviceaccount "default" not found',
      );
    });
  },
);
