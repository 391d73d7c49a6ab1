/**
 * The reference server's stand-ins for kube-controller-manager's garbage collector and namespace
 * controller (on by default): they follow the rules the real controllers follow, which
 * `pnpm test:components` checks against the real kube-controller-manager.
 */
import { type RunningServer, startServer } from "@kubesdk/server";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

let s: RunningServer;
let dispatcher: Agent;
const ns = "gc";
const cms = `/api/v1/namespaces/${ns}/configmaps`;

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
async function call(method: string, path: string, body?: unknown, contentType?: string): Promise<any> {
  const res = await request(s.url + path, {
    method: method as "GET",
    headers: { authorization: `Bearer ${s.token}`, "content-type": contentType ?? "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    dispatcher,
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
}

const gone = async (path: string) => (await call("GET", path)).status === 404;
const release = (path: string) =>
  call("PATCH", path, { metadata: { finalizers: null } }, "application/merge-patch+json");

async function family(prefix: string, hold: boolean) {
  const owner = (await call("POST", cms, { metadata: { name: `${prefix}-owner` } })).json;
  const ref = {
    apiVersion: "v1",
    kind: "ConfigMap",
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    blockOwnerDeletion: true,
  };
  await call("POST", cms, {
    metadata: {
      name: `${prefix}-dep1`,
      ownerReferences: [ref],
      ...(hold ? { finalizers: ["example.com/hold"] } : {}),
    },
  });
  await call("POST", cms, { metadata: { name: `${prefix}-dep2`, ownerReferences: [ref] } });
}

beforeAll(async () => {
  s = await startServer({ settings: { namespaceFinalizeDelayMs: 0 } });
  dispatcher = new Agent({ connect: { ca: s.ca } });
  await call("POST", "/api/v1/namespaces", { metadata: { name: ns } });
});
afterAll(async () => {
  await dispatcher.close();
  await s.stop();
});

describe("in-process garbage collector", () => {
  it("deletes dependents of a deleted owner (Background)", async () => {
    await family("bg", false);
    await call("DELETE", `${cms}/bg-owner`);
    await vi.waitFor(async () =>
      expect((await gone(`${cms}/bg-dep1`)) && (await gone(`${cms}/bg-dep2`))).toBe(true),
    );
  });

  it("keeps a Foreground owner until its blocking dependents are gone", async () => {
    await family("fg", true);
    await call("DELETE", `${cms}/fg-owner`, { propagationPolicy: "Foreground" });
    await vi.waitFor(async () => expect(await gone(`${cms}/fg-dep2`)).toBe(true));
    const dep1 = (await call("GET", `${cms}/fg-dep1`)).json;
    expect(dep1.metadata.deletionTimestamp).toBeTruthy();
    expect((await call("GET", `${cms}/fg-owner`)).json.metadata.finalizers).toEqual(["foregroundDeletion"]);
    await release(`${cms}/fg-dep1`);
    await vi.waitFor(async () => expect(await gone(`${cms}/fg-owner`)).toBe(true));
  });

  it("releases the dependents of an Orphan owner", async () => {
    await family("or", false);
    await call("DELETE", `${cms}/or-owner`, { propagationPolicy: "Orphan" });
    await vi.waitFor(async () => expect(await gone(`${cms}/or-owner`)).toBe(true));
    for (const name of ["or-dep1", "or-dep2"])
      expect((await call("GET", `${cms}/${name}`)).json.metadata.ownerReferences).toBeUndefined();
  });
});

describe("in-process garbage collector: owners that do not exist", () => {
  const owned = (name: string, ...ownerReferences: Record<string, unknown>[]) =>
    call("POST", cms, { metadata: { name, ownerReferences } });
  const cmRef = (name: string, uid: string) => ({ apiVersion: "v1", kind: "ConfigMap", name, uid });

  it("deletes a dependent whose only owner never existed, or exists under another uid", async () => {
    const real = (await call("POST", cms, { metadata: { name: "ab-owner" } })).json;
    expect((await owned("ab-none", cmRef("ab-missing", "00000000-0000-0000-0000-000000000001"))).status).toBe(
      201,
    );
    expect((await owned("ab-uid", cmRef("ab-owner", "00000000-0000-0000-0000-000000000002"))).status).toBe(
      201,
    );
    await vi.waitFor(async () =>
      expect((await gone(`${cms}/ab-none`)) && (await gone(`${cms}/ab-uid`))).toBe(true),
    );
    // The owner whose name was borrowed stays.
    expect((await call("GET", `${cms}/ab-owner`)).json.metadata.uid).toBe(real.metadata.uid);
  });

  it("treats an owner of another kind or in another namespace as absent", async () => {
    const secret = (await call("POST", `/api/v1/namespaces/${ns}/secrets`, { metadata: { name: "ab-s" } }))
      .json;
    await call("POST", "/api/v1/namespaces", { metadata: { name: "gc-other" } });
    const elsewhere = (
      await call("POST", "/api/v1/namespaces/gc-other/configmaps", { metadata: { name: "ab-o" } })
    ).json;
    await owned("ab-kind", cmRef("ab-s", secret.metadata.uid));
    await owned("ab-ns", cmRef("ab-o", elsewhere.metadata.uid));
    await vi.waitFor(async () =>
      expect((await gone(`${cms}/ab-kind`)) && (await gone(`${cms}/ab-ns`))).toBe(true),
    );
  });

  it("with an owner left, drops only the references to absent owners", async () => {
    const owner = (await call("POST", cms, { metadata: { name: "mix-owner" } })).json;
    const solid = { ...cmRef("mix-owner", owner.metadata.uid), controller: true };
    await owned("mix-dep", cmRef("mix-missing", "00000000-0000-0000-0000-000000000003"), solid);
    await vi.waitFor(async () =>
      expect((await call("GET", `${cms}/mix-dep`)).json.metadata.ownerReferences).toEqual([solid]),
    );
  });

  it("leaves a dependent alone while its owner's kind is not served", async () => {
    const unknown = { apiVersion: "nothing.kubesdk.example/v1", kind: "Nothing", name: "n", uid: "u-1" };
    await owned("unk-dep", unknown);
    // Written after it, so collected after it: once this one is gone the first was looked at.
    await owned("unk-marker", cmRef("unk-missing", "00000000-0000-0000-0000-000000000004"));
    await vi.waitFor(async () => expect(await gone(`${cms}/unk-marker`)).toBe(true));
    expect((await call("GET", `${cms}/unk-dep`)).json.metadata.ownerReferences).toEqual([unknown]);
  });

  it("a Foreground owner: a dependent with another owner loses the reference instead of going", async () => {
    const other = (await call("POST", cms, { metadata: { name: "fo-other" } })).json;
    const owner = (await call("POST", cms, { metadata: { name: "fo-owner" } })).json;
    const blocking = { ...cmRef("fo-owner", owner.metadata.uid), blockOwnerDeletion: true };
    const kept = cmRef("fo-other", other.metadata.uid);
    await owned("fo-shared", blocking, kept);
    await owned("fo-only", blocking);
    await call("DELETE", `${cms}/fo-owner`, { propagationPolicy: "Foreground" });
    await vi.waitFor(async () => expect(await gone(`${cms}/fo-owner`)).toBe(true));
    expect(await gone(`${cms}/fo-only`)).toBe(true);
    expect((await call("GET", `${cms}/fo-shared`)).json.metadata.ownerReferences).toEqual([kept]);
  });
});

describe("in-process namespace controller", () => {
  it("reports what remains, waits for finalizers, then removes the namespace", async () => {
    await call("POST", "/api/v1/namespaces", { metadata: { name: "held" } });
    await call("POST", "/api/v1/namespaces/held/configmaps", {
      metadata: { name: "h", finalizers: ["example.com/hold"] },
    });
    await call("POST", "/api/v1/namespaces/held/configmaps", { metadata: { name: "free" } });
    await call("DELETE", "/api/v1/namespaces/held");
    await vi.waitFor(async () => {
      const got = (await call("GET", "/api/v1/namespaces/held")).json;
      const conds = (got.status.conditions ?? []) as { type: string; status: string; message: string }[];
      expect(conds.find((c) => c.type === "NamespaceFinalizersRemaining")).toMatchObject({
        status: "True",
        message:
          "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances",
      });
      expect(conds.find((c) => c.type === "NamespaceContentRemaining")?.message).toBe(
        "Some resources are remaining: configmaps. has 1 resource instances",
      );
    });
    expect(await gone("/api/v1/namespaces/held/configmaps/free")).toBe(true);
    await release("/api/v1/namespaces/held/configmaps/h");
    await vi.waitFor(async () => expect(await gone("/api/v1/namespaces/held")).toBe(true));
  });

  it("finalizes a namespace whose delay timer fires before the wall clock reaches the due time", async () => {
    // Node starts a timer from the event loop's clock, read when the loop last woke up. Deleting the
    // namespace after 100 ms of work in the same turn starts the delay timer 100 ms in the past, so
    // it fires while Date.now() is still short of the due time the controller computed.
    const late = await startServer({ settings: { namespaceFinalizeDelayMs: 150 } });
    try {
      const ns = late.store.get("/namespaces", "default");
      expect(ns).toBeDefined();
      const busyUntil = Date.now() + 100;
      while (Date.now() < busyUntil) {
        // Keeps the event loop's clock behind the wall clock; not a wait for anything.
      }
      const stored = ns as NonNullable<typeof ns>;
      const deleting = {
        ...stored,
        metadata: { ...stored.metadata, deletionTimestamp: new Date().toISOString() },
      };
      late.store.update("/namespaces", "default", deleting);
      await vi.waitFor(() => expect(late.store.get("/namespaces", "default")).toBeUndefined(), {
        timeout: 5_000,
        interval: 20,
      });
    } finally {
      await late.stop();
    }
  });
});

describe("in-process storage protection", () => {
  it("a deleted claim stays while a pod uses it, then goes; a deleted unbound volume goes at once", async () => {
    const claims = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
    const pods = `/api/v1/namespaces/${ns}/pods`;
    const spec = { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } };
    expect((await call("POST", claims, { metadata: { name: "held" }, spec })).status).toBe(201);
    const pod = {
      metadata: { name: "user" },
      spec: {
        containers: [{ name: "main", image: "busybox" }],
        volumes: [{ name: "data", persistentVolumeClaim: { claimName: "held" } }],
      },
    };
    await vi.waitFor(async () => expect((await call("POST", pods, pod)).status).toBe(201));
    expect((await call("DELETE", `${claims}/held`)).status).toBe(200);
    const held = (await call("GET", `${claims}/held`)).json;
    expect(held.metadata.deletionTimestamp).toBeDefined();
    expect(held.metadata.finalizers).toEqual(["kubernetes.io/pvc-protection"]);
    expect((await call("DELETE", `${pods}/user?gracePeriodSeconds=0`)).status).toBe(200);
    await vi.waitFor(async () => expect(await gone(`${claims}/held`)).toBe(true));
    const pv = {
      metadata: { name: "spare" },
      spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], hostPath: { path: "/tmp/pv" } },
    };
    expect((await call("POST", "/api/v1/persistentvolumes", pv)).status).toBe(201);
    expect((await call("DELETE", "/api/v1/persistentvolumes/spare")).status).toBe(200);
    await vi.waitFor(async () => expect(await gone("/api/v1/persistentvolumes/spare")).toBe(true));
  });
});
