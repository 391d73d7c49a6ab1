/**
 * The scenarios of the upstream server-side apply documentation, step by step through the typed
 * client: appliers collaborating on one object, the three ways to resolve a conflict, handing
 * spec.replicas to a controller without a reset, transferring ownership, clearing managedFields and
 * upgrading from client-side apply. Every step asserts the exact managedFields (times normalised)
 * and the exact conflict text; the same literals pass on the reference server and (test:real) a
 * kube-apiserver.
 */
import { type ApplyConfiguration, ApplyConflictError, type Kube } from "@kubesdk/client";
import { type appsV1, type coreV1, FieldSet, type metaV1 } from "@kubesdk/models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, createNamespace, deleteNamespace } from "../client/support.js";
import { startTarget, type TestTarget } from "../support/target.js";

let t: TestTarget;
let kube: Kube;
let ns: string;
beforeAll(async () => {
  t = await startTarget();
  const admin = await clientFor(t);
  ns = await createNamespace(admin, "ssa-scenarios");
  await admin.close();
  kube = await clientFor(t, ns);
});
afterAll(async () => {
  await deleteNamespace(kube, ns);
  await kube.close();
  await t.close();
});

const configMaps = () => kube.resource("v1", "ConfigMap");
const deployments = () => kube.resource("apps/v1", "Deployment");

/**
 * One managedFields entry without its time (whose format is checked), `stamped: false` when it has
 * none: upstream stamps an applier's entry only when its apply changed the object.
 */
interface Ownership {
  manager: string | undefined;
  operation: string | undefined;
  apiVersion: string | undefined;
  subresource?: string;
  fieldsV1: unknown;
  stamped?: false;
}

const RFC3339_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/**
 * The object's managedFields without times, sorted by operation, manager, apiVersion (upstream
 * sorts by time within an operation, and two steps may fall in the same second or not). Also
 * checks what does not vary: the time format, fieldsType, and upstream's child order in fieldsV1.
 */
function ownership(object: { metadata?: { managedFields?: readonly metaV1.ManagedFieldsEntry[] } }) {
  const entries = object.metadata?.managedFields ?? [];
  const out: Ownership[] = [];
  for (const e of entries) {
    if (e.time !== undefined) expect(e.time).toMatch(RFC3339_SECONDS);
    expect(e.fieldsType).toBe("FieldsV1");
    expect(JSON.stringify(FieldSet.fromFieldsV1(e.fieldsV1).toFieldsV1())).toBe(JSON.stringify(e.fieldsV1));
    out.push({
      manager: e.manager,
      operation: e.operation,
      apiVersion: e.apiVersion,
      ...(e.subresource ? { subresource: e.subresource } : {}),
      fieldsV1: e.fieldsV1,
      ...(e.time === undefined ? { stamped: false as const } : {}),
    });
  }
  const key = (o: Ownership) => `${o.operation}\u0000${o.manager}\u0000${o.apiVersion}`;
  return out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

const applied = (manager: string, fieldsV1: unknown, apiVersion = "v1"): Ownership => ({
  manager,
  operation: "Apply",
  apiVersion,
  fieldsV1,
});
/** An applier that joined in on equal values only, so its entry has no time. */
const unstamped = (o: Ownership): Ownership => ({ ...o, stamped: false });
const updated = (manager: string, fieldsV1: unknown, apiVersion = "v1"): Ownership => ({
  manager,
  operation: "Update",
  apiVersion,
  fieldsV1,
});

function configMap(name: string, data: Record<string, string>): ApplyConfiguration<coreV1.ConfigMap> {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data };
}

/** fieldsV1 of a ConfigMap applier that owns exactly these data keys. */
const dataKeys = (...keys: string[]) => ({
  "f:data": Object.fromEntries(keys.sort().map((k) => [`f:${k}`, {}])),
});

/** The conflict an apply fails with (the test fails if it succeeds or fails otherwise). */
async function conflictOf(attempt: Promise<unknown>): Promise<ApplyConflictError> {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApplyConflictError);
  const conflict = error as ApplyConflictError;
  expect(conflict.cause).toMatchObject({ statusCode: 409, reason: "Conflict" });
  return conflict;
}

/**
 * The Status message and causes of a conflict, as sent; causes sorted by field, because a
 * kube-apiserver lists the managers' causes in map order (the message is sorted).
 */
function wire(conflict: ApplyConflictError) {
  const causes = [...(conflict.cause.details?.causes ?? [])];
  return {
    message: conflict.cause.message,
    causes: causes.sort((a, b) => ((a.field ?? "") < (b.field ?? "") ? -1 : 1)),
  };
}

describe("appliers collaborating on one object", () => {
  it("each owns what it applies; equal values are owned by both; a field leaves only with its last owner", async () => {
    const name = "collab";
    const a = await configMaps().apply(configMap(name, { a: "1", shared: "x" }), { fieldManager: "alice" });
    expect(a.data).toEqual({ a: "1", shared: "x" });
    expect(ownership(a)).toEqual([applied("alice", dataKeys("a", "shared"))]);

    // Bob applies other fields and the same value of `shared`: no conflict, shared ownership.
    const b = await configMaps().apply(configMap(name, { b: "2", shared: "x" }), { fieldManager: "bob" });
    expect(b.data).toEqual({ a: "1", b: "2", shared: "x" });
    expect(ownership(b)).toEqual([
      applied("alice", dataKeys("a", "shared")),
      applied("bob", dataKeys("b", "shared")),
    ]);

    // Alice stops applying `shared`: Bob still owns it, so it stays.
    const c = await configMaps().apply(configMap(name, { a: "1" }), { fieldManager: "alice" });
    expect(c.data).toEqual({ a: "1", b: "2", shared: "x" });
    expect(ownership(c)).toEqual([applied("alice", dataKeys("a")), applied("bob", dataKeys("b", "shared"))]);

    // Bob stops applying it too: its last owner gave it up, so it is removed.
    const d = await configMaps().apply(configMap(name, { b: "2" }), { fieldManager: "bob" });
    expect(d.data).toEqual({ a: "1", b: "2" });
    expect(ownership(d)).toEqual([applied("alice", dataKeys("a")), applied("bob", dataKeys("b"))]);

    // Re-applying an unchanged configuration writes nothing.
    const e = await configMaps().apply(configMap(name, { b: "2" }), { fieldManager: "bob" });
    expect(e.metadata?.resourceVersion).toBe(d.metadata?.resourceVersion);
  });
});

describe("resolving a conflict", () => {
  /** ops applies mode=fast and its own key; dev then applies mode=slow and conflicts. */
  async function conflicted(name: string): Promise<ApplyConflictError> {
    await configMaps().apply(configMap(name, { mode: "fast", ops: "y" }), { fieldManager: "ops" });
    const conflict = await conflictOf(
      configMaps().apply(configMap(name, { mode: "slow", dev: "z" }), { fieldManager: "dev" }),
    );
    expect(wire(conflict)).toEqual({
      message: 'Apply failed with 1 conflict: conflict with "ops": .data.mode',
      causes: [{ reason: "FieldManagerConflict", message: 'conflict with "ops"', field: ".data.mode" }],
    });
    expect(conflict.conflicts).toEqual([{ manager: "ops", operation: "Apply", path: ".data.mode" }]);
    // The failed apply changed nothing.
    const live = await configMaps().get(name);
    expect(live.data).toEqual({ mode: "fast", ops: "y" });
    expect(ownership(live)).toEqual([applied("ops", dataKeys("mode", "ops"))]);
    return conflict;
  }

  it("overwrite: force makes the applier the sole manager of the field", async () => {
    await conflicted("force");
    const forced = await configMaps().apply(configMap("force", { mode: "slow", dev: "z" }), {
      fieldManager: "dev",
      conflicts: "force",
    });
    expect(forced.data).toEqual({ mode: "slow", ops: "y", dev: "z" });
    expect(ownership(forced)).toEqual([
      applied("dev", dataKeys("dev", "mode")),
      applied("ops", dataKeys("ops")),
    ]);

    // ops, no longer an owner, now conflicts with dev in turn.
    const back = await conflictOf(
      configMaps().apply(configMap("force", { mode: "fast", ops: "y" }), { fieldManager: "ops" }),
    );
    expect(wire(back)).toEqual({
      message: 'Apply failed with 1 conflict: conflict with "dev": .data.mode',
      causes: [{ reason: "FieldManagerConflict", message: 'conflict with "dev"', field: ".data.mode" }],
    });
  });

  it('don\'t overwrite, give up the claim: "yield" drops the field and re-applies the rest', async () => {
    await conflicted("yield");
    const { object, yielded } = await configMaps().applyWithResult(
      configMap("yield", { mode: "slow", dev: "z" }),
      { fieldManager: "dev", conflicts: "yield" },
    );
    expect(yielded).toEqual([{ manager: "ops", operation: "Apply", path: ".data.mode" }]);
    expect(object.data).toEqual({ mode: "fast", ops: "y", dev: "z" });
    expect(ownership(object)).toEqual([
      applied("dev", dataKeys("dev")),
      applied("ops", dataKeys("mode", "ops")),
    ]);

    // The same by hand: the configuration without the field applies cleanly and changes nothing more.
    const byHand = await configMaps().apply(configMap("yield", { dev: "z" }), { fieldManager: "dev" });
    expect(byHand.metadata?.resourceVersion).toBe(object.metadata?.resourceVersion);
  });

  it("don't overwrite, share the field: apply the owner's value and both manage it", async () => {
    await conflicted("share");
    const shared = await configMaps().apply(configMap("share", { mode: "fast", dev: "z" }), {
      fieldManager: "dev",
    });
    expect(shared.data).toEqual({ mode: "fast", ops: "y", dev: "z" });
    expect(ownership(shared)).toEqual([
      applied("dev", dataKeys("dev", "mode")),
      applied("ops", dataKeys("mode", "ops")),
    ]);

    // A shared field cannot be changed by either owner alone.
    const change = await conflictOf(
      configMaps().apply(configMap("share", { mode: "slow", dev: "z" }), { fieldManager: "dev" }),
    );
    expect(wire(change).message).toBe('Apply failed with 1 conflict: conflict with "ops": .data.mode');
  });

  it("conflicts with several managers, Update ones named with their apiVersion, in one message", async () => {
    const name = "several";
    await configMaps().apply(configMap(name, { mode: "fast", size: "s" }), { fieldManager: "ops" });
    await configMaps().patch(
      name,
      { type: "merge", patch: { data: { color: "red", size: "m" } } },
      { fieldManager: "editor" },
    );
    const conflict = await conflictOf(
      configMaps().apply(configMap(name, { color: "blue", mode: "slow", size: "l" }), {
        fieldManager: "dev",
      }),
    );
    expect(wire(conflict)).toEqual({
      message:
        'Apply failed with 3 conflicts: conflicts with "editor" using v1:\n- .data.color\n- .data.size\nconflicts with "ops":\n- .data.mode',
      causes: [
        { reason: "FieldManagerConflict", message: 'conflict with "editor" using v1', field: ".data.color" },
        { reason: "FieldManagerConflict", message: 'conflict with "ops"', field: ".data.mode" },
        { reason: "FieldManagerConflict", message: 'conflict with "editor" using v1', field: ".data.size" },
      ],
    });
    expect(ownership(await configMaps().get(name))).toEqual([
      applied("ops", dataKeys("mode")),
      updated("editor", dataKeys("color", "size")),
    ]);
  });
});

/** The user's Deployment; `replicas` left out when undefined. */
function userDeployment(name: string, replicas?: number): ApplyConfiguration<appsV1.Deployment> {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name },
    spec: {
      ...(replicas !== undefined ? { replicas } : {}),
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "main", image: "nginx:1.27" }] },
      },
    },
  };
}

/** What the controller applies: spec.replicas and nothing else. */
function replicasOnly(name: string, replicas: number): ApplyConfiguration<appsV1.Deployment> {
  return { apiVersion: "apps/v1", kind: "Deployment", metadata: { name }, spec: { replicas } };
}

/** fieldsV1 of the user's Deployment, with or without spec.replicas. */
function userFields(withReplicas: boolean) {
  return {
    "f:spec": {
      ...(withReplicas ? { "f:replicas": {} } : {}),
      "f:selector": {},
      "f:template": {
        "f:metadata": { "f:labels": { "f:app": {} } },
        "f:spec": {
          "f:containers": { 'k:{"name":"main"}': { ".": {}, "f:image": {}, "f:name": {} } },
        },
      },
    },
  };
}
const REPLICAS = { "f:spec": { "f:replicas": {} } };

describe("handing spec.replicas from a user to a controller", () => {
  it("the controller applies the same value, the user drops it, the controller changes it: no reset", async () => {
    const name = "handover";
    const one = await deployments().apply(userDeployment(name, 3), { fieldManager: "user" });
    expect(one.spec.replicas).toBe(3);
    expect(ownership(one)).toEqual([applied("user", userFields(true), "apps/v1")]);

    // The controller applies only replicas, with the current value: both own it, nothing changes.
    const two = await deployments().apply(replicasOnly(name, 3), { fieldManager: "hpa" });
    expect(two.spec.replicas).toBe(3);
    expect(two.metadata?.generation).toBe(one.metadata?.generation);
    expect(ownership(two)).toEqual([
      unstamped(applied("hpa", REPLICAS, "apps/v1")),
      applied("user", userFields(true), "apps/v1"),
    ]);

    // The user drops replicas from its configuration: the controller still owns it, so it stays 3.
    const three = await deployments().apply(userDeployment(name), { fieldManager: "user" });
    expect(three.spec.replicas).toBe(3);
    expect(three.metadata?.generation).toBe(one.metadata?.generation);
    expect(ownership(three)).toEqual([
      unstamped(applied("hpa", REPLICAS, "apps/v1")),
      applied("user", userFields(false), "apps/v1"),
    ]);

    // The controller, sole owner now, changes it without a conflict; the user's applies keep it.
    const four = await deployments().apply(replicasOnly(name, 5), { fieldManager: "hpa" });
    expect(four.spec.replicas).toBe(5);
    const five = await deployments().apply(userDeployment(name), { fieldManager: "user" });
    expect(five.spec.replicas).toBe(5);
    expect(ownership(five)).toEqual([
      applied("hpa", REPLICAS, "apps/v1"),
      applied("user", userFields(false), "apps/v1"),
    ]);
  });

  it("without the hand-over, the user dropping replicas as its sole owner resets it to the default", async () => {
    const name = "reset";
    await deployments().apply(userDeployment(name, 3), { fieldManager: "user" });
    const dropped = await deployments().apply(userDeployment(name), { fieldManager: "user" });
    expect(dropped.spec.replicas).toBe(1);
    expect(ownership(dropped)).toEqual([applied("user", userFields(false), "apps/v1")]);
  });
});

describe("transferring ownership between users", () => {
  it("the new owner applies the same value, the old one drops it; the new owner then changes it freely", async () => {
    const name = "transfer";
    await configMaps().apply(configMap(name, { owner: "team-a", a: "1" }), { fieldManager: "alice" });
    const shared = await configMaps().apply(configMap(name, { owner: "team-a" }), { fieldManager: "bob" });
    expect(ownership(shared)).toEqual([
      applied("alice", dataKeys("a", "owner")),
      unstamped(applied("bob", dataKeys("owner"))),
    ]);

    const released = await configMaps().apply(configMap(name, { a: "1" }), { fieldManager: "alice" });
    expect(released.data).toEqual({ owner: "team-a", a: "1" });
    expect(ownership(released)).toEqual([
      applied("alice", dataKeys("a")),
      unstamped(applied("bob", dataKeys("owner"))),
    ]);

    const changed = await configMaps().apply(configMap(name, { owner: "team-b" }), { fieldManager: "bob" });
    expect(changed.data).toEqual({ owner: "team-b", a: "1" });
    expect(ownership(changed)).toEqual([applied("alice", dataKeys("a")), applied("bob", dataKeys("owner"))]);

    // Alice claiming the field again now conflicts with its new owner.
    const claim = await conflictOf(
      configMaps().apply(configMap(name, { owner: "team-a", a: "1" }), { fieldManager: "alice" }),
    );
    expect(wire(claim).causes).toEqual([
      { reason: "FieldManagerConflict", message: 'conflict with "bob"', field: ".data.owner" },
    ]);
  });
});

describe("clearing managedFields", () => {
  /** An object owned by alice (a) and bob (b). */
  async function owned(name: string): Promise<coreV1.ConfigMap> {
    await configMaps().apply(configMap(name, { a: "1" }), { fieldManager: "alice" });
    const object = await configMaps().apply(configMap(name, { b: "2" }), { fieldManager: "bob" });
    expect(ownership(object)).toEqual([applied("alice", dataKeys("a")), applied("bob", dataKeys("b"))]);
    return object;
  }

  it("a merge patch setting [{}] wipes them; the next apply finds every field owned by before-first-apply", async () => {
    const name = "clear-item";
    const before = await owned(name);
    const wiped = await configMaps().patch(
      name,
      { type: "merge", patch: { metadata: { managedFields: [{}] } } },
      { fieldManager: "clearer" },
    );
    expect(wiped.metadata?.managedFields).toBeUndefined();
    expect(wiped.data).toEqual({ a: "1", b: "2" });
    expect(wiped.metadata?.resourceVersion).not.toBe(before.metadata?.resourceVersion);

    // The first apply onto an object without managedFields records its fields under before-first-apply.
    const conflict = await conflictOf(
      configMaps().apply(configMap(name, { b: "3" }), { fieldManager: "carol" }),
    );
    expect(wire(conflict)).toEqual({
      message: 'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.b',
      causes: [
        {
          reason: "FieldManagerConflict",
          message: 'conflict with "before-first-apply" using v1',
          field: ".data.b",
        },
      ],
    });
    const after = await configMaps().apply(configMap(name, { b: "2" }), { fieldManager: "carol" });
    expect(after.data).toEqual({ a: "1", b: "2" });
    expect(ownership(after)).toEqual([
      unstamped(applied("carol", dataKeys("b"))),
      updated("before-first-apply", { "f:data": { ".": {}, "f:a": {}, "f:b": {} } }),
    ]);
  });

  it("a JSON patch setting [] wipes them too (kube-apiserver 1.37 treats an empty list as a reset)", async () => {
    const name = "clear-empty";
    const before = await owned(name);
    const wiped = await configMaps().patch(
      name,
      { type: "json", operations: [{ op: "replace", path: "/metadata/managedFields", value: [] }] },
      { fieldManager: "clearer" },
    );
    expect(wiped.metadata?.managedFields).toBeUndefined();
    expect(wiped.metadata?.resourceVersion).not.toBe(before.metadata?.resourceVersion);
    // Updates do not start tracking again on an object without managedFields: only an apply does.
    const labelled = await configMaps().patch(
      name,
      { type: "merge", patch: { metadata: { labels: { tier: "web" } } } },
      { fieldManager: "labeller" },
    );
    expect(labelled.metadata?.labels).toEqual({ tier: "web" });
    expect(ownership(labelled)).toEqual([]);
  });
});

describe("upgrading from client-side apply", () => {
  it("kubectl's server-side apply takes over the fields of its last-applied configuration", async () => {
    const name = "upgrade";
    const csaConfig = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { annotations: {}, name, namespace: ns },
      data: { a: "1", b: "2" },
    };
    const lastApplied = "kubectl.kubernetes.io/last-applied-configuration";
    const created = await configMaps().create(
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name, annotations: { [lastApplied]: `${JSON.stringify(csaConfig)}\n` } },
        data: { a: "1", b: "2" },
      },
      { fieldManager: "kubectl-client-side-apply" },
    );
    const csaFields = {
      "f:data": { ".": {}, "f:a": {}, "f:b": {} },
      "f:metadata": { "f:annotations": { ".": {}, [`f:${lastApplied}`]: {} } },
    };
    expect(ownership(created)).toEqual([updated("kubectl-client-side-apply", csaFields)]);

    // Another applier changing b conflicts with the client-side applier.
    const other = await conflictOf(
      configMaps().apply(configMap(name, { b: "3" }), { fieldManager: "other" }),
    );
    expect(wire(other)).toEqual({
      message: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.b',
      causes: [
        {
          reason: "FieldManagerConflict",
          message: 'conflict with "kubectl-client-side-apply" using v1',
          field: ".data.b",
        },
      ],
    });

    // As "kubectl", the fields of the last-applied configuration are taken over without a conflict,
    // and the annotation now records this apply.
    const upgraded = await configMaps().apply(configMap(name, { a: "1", b: "3" }), {
      fieldManager: "kubectl",
    });
    expect(upgraded.data).toEqual({ a: "1", b: "3" });
    expect(JSON.parse(upgraded.metadata?.annotations?.[lastApplied] ?? "null")).toEqual(
      configMap(name, { a: "1", b: "3" }),
    );
    expect(ownership(upgraded)).toEqual([
      applied("kubectl", dataKeys("a", "b")),
      updated("kubectl-client-side-apply", {
        "f:data": { ".": {}, "f:a": {} },
        "f:metadata": { "f:annotations": { ".": {}, [`f:${lastApplied}`]: {} } },
      }),
    ]);
  });
});
