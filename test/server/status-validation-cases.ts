/**
 * Table rows for the status validation suites (validation-status*.test.ts): a valid object is
 * created, optionally given a stored status, then a merge patch is sent to its /status with
 * dryRun=All, and the answer is what kube-apiserver 1.37 answers: 200, or 422 Invalid with exactly
 * these causes, each written `field | reason | message`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

type Json = Record<string, unknown>;

const CONTAINERS = [{ name: "c", image: "i" }];
const TEMPLATE = { metadata: { labels: { app: "x" } }, spec: { containers: CONTAINERS } };
const WORKLOAD = { selector: { matchLabels: { app: "x" } }, template: TEMPLATE };

/** Where each kind is created, and a valid spec for it. */
export const FIXTURES = {
  deployment: { path: "/apis/apps/v1/namespaces/default/deployments", spec: WORKLOAD },
  replicaset: { path: "/apis/apps/v1/namespaces/default/replicasets", spec: WORKLOAD },
  statefulset: { path: "/apis/apps/v1/namespaces/default/statefulsets", spec: WORKLOAD },
  daemonset: { path: "/apis/apps/v1/namespaces/default/daemonsets", spec: WORKLOAD },
  replicationcontroller: {
    path: "/api/v1/namespaces/default/replicationcontrollers",
    spec: { selector: { app: "x" }, template: TEMPLATE },
  },
  hpa: {
    path: "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
    spec: { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "d" }, maxReplicas: 3 },
  },
  job: {
    path: "/apis/batch/v1/namespaces/default/jobs",
    spec: { template: { spec: { containers: CONTAINERS, restartPolicy: "Never" } } },
  },
  cronjob: {
    path: "/apis/batch/v1/namespaces/default/cronjobs",
    spec: {
      schedule: "*/5 * * * *",
      jobTemplate: { spec: { template: { spec: { containers: CONTAINERS, restartPolicy: "Never" } } } },
    },
  },
  pod: { path: "/api/v1/namespaces/default/pods", spec: { containers: CONTAINERS, restartPolicy: "Never" } },
  pvc: {
    path: "/api/v1/namespaces/default/persistentvolumeclaims",
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
  },
  namespace: { path: "/api/v1/namespaces", spec: {} },
} as const;

export interface StatusRow {
  readonly name: string;
  readonly kind: keyof typeof FIXTURES;
  /** Fields replacing the fixture's spec fields. */
  readonly spec?: Json;
  /** A status written (for real) before the row's write, which then updates it. */
  readonly before?: Json;
  /** The status merged in by the dry-run write. */
  readonly status: Json;
  /** The causes of the 422; empty when the write is accepted. */
  readonly causes: readonly string[];
}

const MERGE = "application/merge-patch+json";
const cause = (c: { field?: string; reason?: string; message?: string }) =>
  `${c.field ?? ""} | ${c.reason ?? ""} | ${c.message ?? ""}`;

async function patchStatus(t: TestTarget, at: string, status: Json, dryRun: boolean) {
  return t.call("PATCH", `${at}/status${dryRun ? "?dryRun=All" : ""}`, {
    rawBody: JSON.stringify({ status }),
    contentType: MERGE,
  });
}

/** Creates the row's object (and its stored status), sends the row's status and checks the answer. */
export async function checkStatusRow(t: TestTarget, row: StatusRow): Promise<void> {
  const fixture = FIXTURES[row.kind];
  const name = uniqueName("st");
  const spec = { ...fixture.spec, ...row.spec };
  const created = await t.call("POST", fixture.path, { body: { metadata: { name }, spec } });
  expect(created.status, created.text).toBe(201);
  const at = `${fixture.path}/${name}`;
  try {
    if (row.before) {
      const stored = await patchStatus(t, at, row.before, false);
      expect(stored.status, `${row.name}: the stored status: ${stored.text}`).toBe(200);
    }
    const res = await patchStatus(t, at, row.status, true);
    if (row.causes.length === 0) {
      expect(res.json?.message, row.name).toBeUndefined();
      expect(res.status, row.name).toBe(200);
      return;
    }
    expect(res.status, `${row.name}: ${res.text}`).toBe(422);
    expect(res.json.reason).toBe("Invalid");
    expect((res.json.details?.causes ?? []).map(cause).sort(), row.name).toEqual([...row.causes].sort());
  } finally {
    await t.call("DELETE", `${at}?gracePeriodSeconds=0`);
  }
}

export const NEGATIVE = "Invalid value: -1: must be greater than or equal to 0";

/** Registers the suite: one target for the file, `setup` once, then one test per row. */
export function describeStatusRows(
  title: string,
  rows: readonly StatusRow[],
  setup?: (t: TestTarget) => Promise<void>,
): void {
  let t: TestTarget;
  beforeAll(async () => {
    t = await startTarget();
    await setup?.(t);
  });
  afterAll(() => t.close());
  describe(title, () => {
    it.each(rows)("$name", async (row) => {
      await checkStatusRow(t, row);
    });
  });
}
