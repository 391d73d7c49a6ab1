/**
 * kube.waitFor on a running server: conditions, deletion, a Deployment's rollout, any predicate,
 * the timeout error (what was awaited, last state seen) and abort by signal.
 */
import { condition, deleted, established, matches, rolloutComplete, WaitTimeoutError } from "@kubesdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueName } from "../support/target.js";
import { widgetDefinition } from "./defined-widget.js";
import { namespacedSuite, testDeployment } from "./support.js";

const suite = namespacedSuite("client-wait");
const definition = widgetDefinition(`${uniqueName("wait")}.example.com`);
const crds = () => suite.kube.resource("apiextensions.k8s.io/v1", "CustomResourceDefinition");
const widgets = () => suite.kube.custom(definition);

beforeAll(async () => {
  await crds().create(definition.manifest());
  await suite.kube.waitFor(crds(), definition.name, established());
});
afterAll(async () => {
  await crds().delete(definition.name);
});

describe("kube.waitFor", () => {
  it("resolves once a condition turns True, with the object that has it", async () => {
    await widgets().create({ metadata: { name: "ready" }, spec: { size: 1 } });
    const waiting = suite.kube.waitFor(widgets(), "ready", condition("Ready"));
    await widgets().status.patch("ready", {
      type: "merge",
      patch: { status: { conditions: [{ type: "Ready", status: "True" }] } },
    });
    const ready = await waiting;
    expect(ready?.metadata?.name).toBe("ready");
    expect(condition("Ready").test(ready)).toBe(true);
  });

  it("resolves at once when the object is already in the state", async () => {
    await widgets().create({ metadata: { name: "now" }, spec: { size: 4 } });
    const got = await suite.kube.waitFor(
      widgets(),
      "now",
      matches("size 4", (w) => w?.spec.size === 4),
    );
    expect(got?.spec.size).toBe(4);
  });

  it("waits for deletion, and for an object that does not exist yet", async () => {
    const created = suite.kube.waitFor(
      widgets(),
      "later",
      matches("exists", (w) => w !== undefined),
    );
    await widgets().create({ metadata: { name: "later" }, spec: { size: 2 } });
    expect((await created)?.spec.size).toBe(2);
    const gone = suite.kube.waitFor(widgets(), "later", deleted());
    await widgets().delete("later");
    expect(await gone).toBeUndefined();
  });

  it("waits for a Deployment's rollout to complete", async () => {
    const deployments = suite.kube.resource("apps/v1", "Deployment");
    const d = await deployments.create(testDeployment("web", 2));
    const rollout = suite.kube.waitFor(deployments, "web", rolloutComplete());
    // No controller runs on the test servers: the status a controller would write is written here.
    await deployments.status.patch("web", {
      type: "merge",
      patch: {
        status: {
          observedGeneration: d.metadata?.generation ?? 1,
          replicas: 2,
          updatedReplicas: 2,
          availableReplicas: 2,
          readyReplicas: 2,
        },
      },
    });
    expect((await rollout)?.status?.availableReplicas).toBe(2);
  });

  it("times out with a typed error naming what was awaited and the last state seen", async () => {
    await widgets().create({ metadata: { name: "stuck" }, spec: { size: 1 } });
    const error = await suite.kube
      .waitFor(widgets(), "stuck", condition("Ready"), { timeoutMs: 300 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ code: "WAIT_TIMEOUT", awaited: "condition Ready=True of widgets/stuck" });
    expect((error as WaitTimeoutError<{ spec: { size: number } }>).lastSeen?.spec.size).toBe(1);
  });

  it("stops when its signal aborts, with the signal's reason", async () => {
    const controller = new AbortController();
    const waiting = suite.kube.waitFor(
      widgets(),
      "never",
      deleted().test(undefined) ? condition("X") : deleted(),
      {
        signal: controller.signal,
      },
    );
    const reason = new Error("caller gave up");
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });
});
