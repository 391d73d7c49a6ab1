import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTarget, type TestTarget, targetKind, uniqueName } from "../support/target.js";

let t: TestTarget;
beforeAll(async () => {
  // A Terminating window long enough to observe on a loaded machine; finalization is awaited below.
  t = await startTarget({ settings: { namespaceFinalizeDelayMs: 3000 } });
});
afterAll(() => t.close());

describe("namespace lifecycle", () => {
  it("deleting a namespace makes it Terminating, refuses new content with 403, and removes its contents", async () => {
    const ns = uniqueName("life");
    expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(
      201,
    );
    expect(
      (
        await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, {
          body: { metadata: { name: "inside" } },
        })
      ).status,
    ).toBe(201);
    const del = await t.call("DELETE", `/api/v1/namespaces/${ns}`);
    expect(del.status).toBe(200);
    expect(del.json.status.phase).toBe("Terminating");
    expect(del.json.metadata.deletionTimestamp).toBeTruthy();
    const refused = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, {
      body: { metadata: { name: "late" } },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.reason).toBe("Forbidden");
    expect(refused.json.message).toBe(
      `configmaps "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
    );
    if (targetKind === "real") {
      // Reason for the difference: a bare kube-apiserver has no namespace controller (kube-controller-manager),
      // so the namespace stays Terminating and its contents stay; the reference server finalizes it itself.
      expect((await t.call("GET", `/api/v1/namespaces/${ns}`)).json.status.phase).toBe("Terminating");
      return;
    }
    // The reference server's stand-in namespace controller finalizes after its delay; no event is
    // observable over HTTP for that, so the test polls the server until the namespace is gone.
    await vi.waitFor(async () => expect((await t.call("GET", `/api/v1/namespaces/${ns}`)).status).toBe(404), {
      timeout: 15_000,
      interval: 20,
    });
    expect(t.reference?.store.get("/configmaps", `${ns}/inside`)).toBeUndefined();
  });

  it("creating into a namespace that does not exist is 404 for the namespace", async () => {
    const res = await t.call("POST", "/api/v1/namespaces/no-such-ns-anywhere/configmaps", {
      body: { metadata: { name: "x" } },
    });
    expect(res.status).toBe(404);
    expect(res.json.details).toEqual({ name: "no-such-ns-anywhere", kind: "namespaces" });
  });

  it("an unsupported verb on a resource is 405", async () => {
    const res = await t.call("POST", "/api/v1/namespaces/default/configmaps/named");
    expect(res.status).toBe(405);
    expect(res.json.reason).toBe("MethodNotAllowed");
  });
});
