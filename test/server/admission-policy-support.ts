/**
 * Helpers of the admission policy suites (admission-policy.test.ts, admission-mutating-policy.test.ts):
 * policies and bindings scoped to one test namespace, created and deleted after the suite, and
 * a bounded wait for a policy to take effect. kube-apiserver applies policy changes through its
 * informers, so a test probes with a dry-run request until the policy answers it.
 */
import { expect } from "vitest";
import type { CallResult, TestTarget } from "../support/target.js";
import { uniqueName } from "../support/target.js";

// biome-ignore lint/suspicious/noExplicitAny: tests build and read arbitrary JSON shapes.
export type Json = any;

export const ADMISSION = "/apis/admissionregistration.k8s.io/v1";

/** How long a policy may take to reach kube-apiserver's policy informer. */
const ENFORCE_WITHIN_MS = 30_000;
/** Pause between probes while waiting, so that the wait does not flood the server. */
const PROBE_INTERVAL_MS = 50;

/** ConfigMap rules for CREATE and UPDATE in one namespace (by its kubernetes.io/metadata.name label). */
export function configMapsIn(ns: string, operations: string[] = ["CREATE", "UPDATE"]): Json {
  return {
    namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ns } },
    resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations, resources: ["configmaps"] }],
  };
}

export interface PolicyApi {
  readonly t: () => TestTarget;
  /** Creates a cluster-scoped admission object (policy, binding) and deletes it after the suite. */
  create(resource: string, body: Json): Promise<Json>;
  /** A fresh namespace (deleted after the suite), so that each test's policies see only its objects. */
  namespace(): Promise<string>;
}

export function policyApi(t: () => TestTarget, deleteAfter: (path: string) => void): PolicyApi {
  return {
    t,
    async create(resource, body) {
      const name = body.metadata?.name ?? uniqueName(resource.slice(0, 8));
      const res = await t().call("POST", `${ADMISSION}/${resource}`, {
        body: { ...body, metadata: { ...body.metadata, name } },
      });
      expect(res.status, res.text).toBe(201);
      deleteAfter(`${ADMISSION}/${resource}/${name}`);
      return res.json;
    },
    async namespace() {
      const name = uniqueName("policy-ns");
      const res = await t().call("POST", "/api/v1/namespaces", { body: { metadata: { name } } });
      expect(res.status, res.text).toBe(201);
      deleteAfter(`/api/v1/namespaces/${name}`);
      return name;
    },
  };
}

/** Repeats `probe` until `done` holds for its answer, within a bound; returns that answer. */
export async function probeUntil(
  probe: () => Promise<CallResult>,
  done: (res: CallResult) => boolean,
  what: string,
): Promise<CallResult> {
  const deadline = Date.now() + ENFORCE_WITHIN_MS;
  for (;;) {
    const res = await probe();
    if (done(res)) return res;
    if (Date.now() > deadline)
      throw new Error(
        `${what}: not in effect within ${ENFORCE_WITHIN_MS} ms; last answer ${res.status} ${res.text}`,
      );
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
  }
}

/** A dry-run create of a ConfigMap (nothing stored whatever the policy says). */
export function dryRunConfigMap(t: TestTarget, ns: string, body: Json): Promise<CallResult> {
  return t.call("POST", `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, {
    body: { apiVersion: "v1", kind: "ConfigMap", ...body },
  });
}

/** The Warning header's values (one string per warning, agent and quotes removed). */
export function warningsOf(res: CallResult): string[] {
  const raw = res.headers.warning;
  const text = Array.isArray(raw) ? raw.join(", ") : (raw ?? "");
  return [...text.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
}

/**
 * Binds a ValidatingAdmissionPolicy (binding `<policy>-b`, action Deny) and waits until it refuses
 * the ConfigMap named "probe" in `ns` (the policy must refuse it).
 */
export async function bindAndWait(api: PolicyApi, policy: string, ns: string): Promise<string> {
  const binding = `${policy}-b`;
  await api.create("validatingadmissionpolicybindings", {
    metadata: { name: binding },
    spec: { policyName: policy, validationActions: ["Deny"] },
  });
  await probeUntil(
    () => dryRunConfigMap(api.t(), ns, { metadata: { name: "probe" } }),
    (res) => res.status !== 201,
    `policy ${policy}`,
  );
  return binding;
}
