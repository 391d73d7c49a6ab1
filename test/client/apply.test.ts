/**
 * Server-side apply through the client: conflict policies against an autoscaler-like Update
 * manager that owns spec.replicas, status apply, and extract round trips. Runs against the reference server and (test:real) a kube-apiserver.
 */
import { type ApplyConfiguration, ApplyConflictError, ClientError, extract } from "@kubesdk/client";
import type { appsV1 } from "@kubesdk/models";
import { ApiError } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { namespacedSuite, testDeployment } from "./support.js";

const suite = namespacedSuite("client-apply");
const deployments = () => suite.kube.resource("apps/v1", "Deployment");

/** The controller's desired state: support.ts's test Deployment (container "main") as an apply configuration. */
function desired(
  name: string,
  replicas: number,
  image = "nginx:1.27",
): ApplyConfiguration<appsV1.Deployment> {
  const { metadata, spec } = testDeployment(name, replicas);
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, labels: metadata?.labels ?? {} },
    spec: { ...spec, template: { ...spec.template, spec: { containers: [{ name: "main", image }] } } },
  };
}

/**
 * The autoscaler takes spec.replicas with a plain (Update) patch. (Through /scale, as the HPA does,
 * the conflict names the manager `with subresource "scale"`: see the report on parsing that form.)
 */
async function autoscale(name: string, replicas: number): Promise<void> {
  await deployments().patch(
    name,
    { type: "merge", patch: { spec: { replicas } } },
    { fieldManager: "autoscaler" },
  );
}

const AUTOSCALER_CONFLICT = {
  manager: "autoscaler",
  operation: "Update",
  apiVersion: "apps/v1",
  path: ".spec.replicas",
};

/** Managers whose field set holds spec.replicas. */
function replicasOwners(object: appsV1.Deployment): string[] {
  return (object.metadata?.managedFields ?? [])
    .filter((e) => (e.fieldsV1 as { "f:spec"?: Record<string, unknown> })?.["f:spec"]?.["f:replicas"])
    .map((e) => e.manager ?? "");
}

describe("conflict policies", () => {
  it('"fail" (the default) throws ApplyConflictError with the parsed conflicts and changes nothing', async () => {
    const created = await deployments().apply(desired("fail", 2), { fieldManager: "ctrl" });
    expect(created.spec.replicas).toBe(2);
    await autoscale("fail", 5);

    const error = await deployments()
      .apply(desired("fail", 3), { fieldManager: "ctrl" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplyConflictError);
    const conflict = error as ApplyConflictError;
    expect(conflict.code).toBe("APPLY_CONFLICT");
    expect(conflict.conflicts).toEqual([AUTOSCALER_CONFLICT]);
    expect(conflict.cause).toBeInstanceOf(ApiError);
    expect(conflict.cause).toMatchObject({ statusCode: 409, reason: "Conflict" });
    expect((await deployments().get("fail")).spec.replicas).toBe(5);
  });

  it('"force" takes the field from its owner', async () => {
    await deployments().apply(desired("force", 2), { fieldManager: "ctrl" });
    await autoscale("force", 5);
    const forced = await deployments().apply(desired("force", 3), {
      fieldManager: "ctrl",
      conflicts: "force",
    });
    expect(forced.spec.replicas).toBe(3);
    expect(replicasOwners(forced)).toEqual(["ctrl"]);
  });

  it('"yield" leaves the conflicting field to its owner, applies the rest and says what it left', async () => {
    await deployments().apply(desired("yield", 2), { fieldManager: "ctrl" });
    await autoscale("yield", 7);
    const { object, yielded } = await deployments().applyWithResult(desired("yield", 2, "nginx:1.28"), {
      fieldManager: "ctrl",
      conflicts: "yield",
    });
    expect(yielded).toEqual([AUTOSCALER_CONFLICT]);
    expect(object.spec.replicas).toBe(7);
    expect(object.spec.template.spec?.containers[0]?.image).toBe("nginx:1.28");
    expect(replicasOwners(object)).toEqual(["autoscaler"]);

    // The controller keeps applying its full desired state; the autoscaler keeps replicas.
    const again = await deployments().apply(desired("yield", 2, "nginx:1.29"), {
      fieldManager: "ctrl",
      conflicts: "yield",
    });
    expect([again.spec.replicas, again.spec.template.spec?.containers[0]?.image]).toEqual([7, "nginx:1.29"]);
  });

  it("dry run goes through the policy without persisting anything", async () => {
    await deployments().apply(desired("dry", 2), { fieldManager: "ctrl" });
    await autoscale("dry", 4);
    const before = await deployments().get("dry");
    const { object, yielded } = await deployments().applyWithResult(desired("dry", 2, "nginx:1.28"), {
      fieldManager: "ctrl",
      conflicts: "yield",
      dryRun: true,
    });
    expect(yielded.map((c) => c.path)).toEqual([".spec.replicas"]);
    expect(object.spec.template.spec?.containers[0]?.image).toBe("nginx:1.28");
    const after = await deployments().get("dry");
    expect(after.spec.template.spec?.containers[0]?.image).toBe("nginx:1.27");
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
  });

  it("refuses a configuration without metadata.name before sending", async () => {
    const nameless = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: {},
    } as ApplyConfiguration<appsV1.Deployment>;
    const error = await deployments()
      .apply(nameless, { fieldManager: "ctrl" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: "MISSING_NAME" });
  });
});

describe("status apply", () => {
  const statusOf = (name: string, reason: string): ApplyConfiguration<appsV1.Deployment> => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name },
    status: { conditions: [{ type: "Progressing", status: "True", reason }] },
  });

  it("applies only the status, records a status-subresource manager, and reports status conflicts", async () => {
    const created = await deployments().apply(desired("st", 1), { fieldManager: "ctrl" });
    const applied = await deployments().status.apply(statusOf("st", "Rolling"), {
      fieldManager: "status-ctrl",
    });
    expect(applied.status?.conditions?.map((c) => [c.type, c.reason])).toEqual([["Progressing", "Rolling"]]);
    expect(applied.spec).toEqual(created.spec);
    const entry = applied.metadata?.managedFields?.find((e) => e.manager === "status-ctrl");
    expect(entry).toMatchObject({ operation: "Apply", subresource: "status" });

    // Applying status through the main resource is ignored there; `subresource` reaches /status too.
    const viaOption = await deployments().apply(statusOf("st", "Again"), {
      fieldManager: "status-ctrl",
      subresource: "status",
    });
    expect(viaOption.status?.conditions?.[0]?.reason).toBe("Again");

    // Another manager updates the condition's reason through /status: the applier now conflicts with it.
    await deployments().status.patch(
      "st",
      {
        type: "merge",
        patch: { status: { conditions: [{ type: "Progressing", status: "True", reason: "Other" }] } },
      },
      { fieldManager: "other" },
    );
    const error = await deployments()
      .status.apply(statusOf("st", "Mine"), { fieldManager: "status-ctrl" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplyConflictError);
    expect((error as ApplyConflictError).cause.causes.map((c) => c.field)).toEqual([
      '.status.conditions[type="Progressing"].reason',
    ]);
  });
});

describe("extract round trip", () => {
  it("apply → get → extract → apply changes nothing (same resourceVersion)", async () => {
    const config = desired("rt", 2);
    await deployments().apply(config, { fieldManager: "ctrl" });
    const live = await deployments().get("rt");
    const extracted = extract(live, "ctrl");
    expect(extracted).toEqual({ ...config, metadata: { ...config.metadata, namespace: suite.ns } });
    const again = await deployments().apply(extracted, { fieldManager: "ctrl" });
    expect(again.metadata?.resourceVersion).toBe(live.metadata?.resourceVersion);
  });

  it("extracts what a manager applied to the status and re-applies it unchanged", async () => {
    await deployments().apply(desired("rt-st", 1), { fieldManager: "ctrl" });
    await deployments().status.apply(
      {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "rt-st" },
        status: { conditions: [{ type: "Available", status: "False", reason: "Waiting" }] },
      },
      { fieldManager: "status-ctrl" },
    );
    const live = await deployments().status.get("rt-st");
    const extracted = extract(live, "status-ctrl", { subresource: "status" });
    expect(extracted.spec).toBeUndefined();
    expect(extracted.status?.conditions).toEqual([{ type: "Available", status: "False", reason: "Waiting" }]);
    const again = await deployments().status.apply(extracted, { fieldManager: "status-ctrl" });
    expect(again.metadata?.resourceVersion).toBe(live.metadata?.resourceVersion);
  });
});
