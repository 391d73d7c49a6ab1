/**
 * PodSecurity admission on both servers (packages/server/src/admission/plugins/pod-security.ts):
 * the namespace labels choose a level and version per mode; enforce refuses pods (403), warn
 * answers `Warning` headers, workload templates are only warned about, bad labels are 422, and
 * tightening a namespace's enforce level warns about the pods already in it. Seeded pods of every
 * check are compared between the servers by `pnpm diff:pod-security`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { warningsOf } from "./admission-policy-support.js";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
type Json = any;

let t: TestTarget;
const made: string[] = [];
const P = "pod-security.kubernetes.io/";

/** A namespace with these labels and its `default` ServiceAccount (kube-apiserver alone makes none). */
async function namespace(labels: Record<string, string>): Promise<string> {
  const name = uniqueName("psa");
  const res = await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name, labels } } });
  expect(res.status, res.text).toBe(201);
  made.push(name);
  const sa = await t.call("POST", `/api/v1/namespaces/${name}/serviceaccounts`, {
    body: { metadata: { name: "default" } },
  });
  expect([201, 409], sa.text).toContain(sa.status);
  return name;
}

const plain = { name: "c", image: "busybox" };
const restrictedContainer = {
  name: "c",
  image: "busybox",
  securityContext: {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ["ALL"] },
    runAsNonRoot: true,
    seccompProfile: { type: "RuntimeDefault" },
  },
};
const privilegedContainer = { name: "c", image: "busybox", securityContext: { privileged: true } };

const pod = (name: string, spec: Json) => ({ metadata: { name }, spec });
const createPod = (ns: string, body: Json, dryRun = true) =>
  t.call("POST", `/api/v1/namespaces/${ns}/pods${dryRun ? "?dryRun=All" : ""}`, { body });
const setLabels = (ns: string, labels: Record<string, string | null>, dryRun = false) =>
  t.call("PATCH", `/api/v1/namespaces/${ns}${dryRun ? "?dryRun=All" : ""}`, {
    body: { metadata: { labels } },
    contentType: "application/merge-patch+json",
  });

const RESTRICTED_PLAIN =
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

beforeAll(async () => {
  t = await startTarget();
});
afterAll(async () => {
  for (const ns of made) await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("PodSecurity on pods", () => {
  it("an unlabelled namespace is privileged: a privileged pod is admitted without warnings", async () => {
    const ns = await namespace({});
    const res = await createPod(ns, pod("p", { containers: [privilegedContainer] }));
    expect(res.status, res.text).toBe(201);
    expect(warningsOf(res)).toEqual([]);
  });

  it("enforce=restricted refuses a pod that sets nothing, naming every check it breaks", async () => {
    const ns = await namespace({ [`${P}enforce`]: "restricted" });
    const res = await createPod(ns, pod("p", { containers: [plain] }));
    expect(res.status, res.text).toBe(403);
    expect(res.json).toMatchObject({
      reason: "Forbidden",
      message: `pods "p" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_PLAIN}`,
      details: { name: "p", kind: "pods" },
    });
    expect(warningsOf(res)).toEqual([]);
  });

  it("enforce=restricted admits a pod that meets the level", async () => {
    const ns = await namespace({ [`${P}enforce`]: "restricted" });
    const res = await createPod(ns, pod("p", { containers: [restrictedContainer] }));
    expect(res.status, res.text).toBe(201);
    expect(warningsOf(res)).toEqual([]);
  });

  it("enforce=baseline refuses host namespaces, hostPath and privileged containers together", async () => {
    const ns = await namespace({ [`${P}enforce`]: "baseline" });
    const res = await createPod(
      ns,
      pod("p", {
        hostPID: true,
        hostIPC: true,
        containers: [privilegedContainer],
        volumes: [{ name: "logs", hostPath: { path: "/var/log" } }],
      }),
    );
    expect(res.status, res.text).toBe(403);
    expect(res.json.message).toBe(
      'pods "p" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true, hostIPC=true), ' +
        'hostPath volumes (volume "logs"), privileged (container "c" must not set securityContext.privileged=true)',
    );
  });

  it("a refused pod with generateName is named by its generated name", async () => {
    const ns = await namespace({ [`${P}enforce`]: "baseline" });
    const res = await createPod(ns, {
      metadata: { generateName: "gen-" },
      spec: { hostPID: true, containers: [plain] },
    });
    expect(res.status, res.text).toBe(403);
    expect(res.json.message).toMatch(
      /^pods "gen-[a-z0-9]{5}" is forbidden: violates PodSecurity "baseline:latest": host namespaces \(hostPID=true\)$/,
    );
    expect(res.json.details.name).toMatch(/^gen-[a-z0-9]{5}$/);
  });

  it("warn=baseline admits a privileged pod with a Warning, and audit adds none", async () => {
    const ns = await namespace({ [`${P}warn`]: "baseline", [`${P}audit`]: "restricted" });
    const res = await createPod(ns, pod("p", { containers: [privilegedContainer] }));
    expect(res.status, res.text).toBe(201);
    expect(warningsOf(res)).toEqual([
      'would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)',
    ]);
  });

  it("a pinned version evaluates that version's checks: runAsUser=0 is refused from v1.23 on", async () => {
    const spec = {
      securityContext: { runAsNonRoot: true, runAsUser: 0, seccompProfile: { type: "RuntimeDefault" } },
      containers: [restrictedContainer],
    };
    const old = await namespace({ [`${P}enforce`]: "restricted", [`${P}enforce-version`]: "v1.22" });
    expect((await createPod(old, pod("p", spec))).status).toBe(201);
    const now = await namespace({ [`${P}enforce`]: "restricted", [`${P}enforce-version`]: "v1.23" });
    const res = await createPod(now, pod("p", spec));
    expect(res.status, res.text).toBe(403);
    expect(res.json.message).toBe(
      'pods "p" is forbidden: violates PodSecurity "restricted:v1.23": runAsUser=0 (pod must not set runAsUser=0)',
    );
  });

  it("an update that only changes labels is not evaluated: an old pod stays updatable", async () => {
    const ns = await namespace({});
    const created = await createPod(ns, pod("old", { containers: [plain] }), false);
    expect(created.status, created.text).toBe(201);
    expect((await setLabels(ns, { [`${P}enforce`]: "restricted" })).status).toBe(200);
    const res = await t.call("PATCH", `/api/v1/namespaces/${ns}/pods/old`, {
      body: { metadata: { labels: { touched: "yes" } } },
      contentType: "application/merge-patch+json",
    });
    expect(res.status, res.text).toBe(200);
    const image = await t.call("PATCH", `/api/v1/namespaces/${ns}/pods/old?dryRun=All`, {
      body: { spec: { containers: [{ name: "c", image: "busybox:1.36" }] } },
      contentType: "application/strategic-merge-patch+json",
    });
    expect(image.status, image.text).toBe(403);
    expect(image.json.message).toBe(
      `pods "old" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_PLAIN}`,
    );
  });
});

describe("PodSecurity on workloads", () => {
  const deployment = (name: string, containers: Json[]) => ({
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers } },
    },
  });

  it("a Deployment breaking the enforce level is admitted with a Warning (warn follows enforce)", async () => {
    const ns = await namespace({ [`${P}enforce`]: "restricted" });
    const res = await t.call("POST", `/apis/apps/v1/namespaces/${ns}/deployments?dryRun=All`, {
      body: deployment("d", [plain]),
    });
    expect(res.status, res.text).toBe(201);
    expect(warningsOf(res)).toEqual([`would violate PodSecurity "restricted:latest": ${RESTRICTED_PLAIN}`]);
  });

  it("an explicit warn label wins over the enforce level for workloads", async () => {
    const ns = await namespace({ [`${P}enforce`]: "restricted", [`${P}warn`]: "privileged" });
    const res = await t.call("POST", `/apis/batch/v1/namespaces/${ns}/cronjobs?dryRun=All`, {
      body: {
        metadata: { name: "cj" },
        spec: {
          schedule: "* * * * *",
          jobTemplate: { spec: { template: { spec: { restartPolicy: "Never", containers: [plain] } } } },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(warningsOf(res)).toEqual([]);
  });
});

describe("PodSecurity on namespaces", () => {
  it("a bad level or version label is 422 on create, one cause per label", async () => {
    const name = uniqueName("psa-bad");
    const res = await t.call("POST", "/api/v1/namespaces", {
      body: { metadata: { name, labels: { [`${P}enforce`]: "strict", [`${P}warn-version`]: "1.30" } } },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.json.reason).toBe("Invalid");
    expect(res.json.message).toBe(
      `Namespace "${name}" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, ` +
        `metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.30": must be "latest" or "v1.x"]`,
    );
  });

  it("an update adding a bad label is 422", async () => {
    const ns = await namespace({});
    const bad = await setLabels(ns, { [`${P}audit`]: "loose" });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.json.message).toBe(
      `Namespace "${ns}" is invalid: metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "loose": must be one of privileged, baseline, restricted`,
    );
  });

  it("tightening enforce warns about the existing pods, grouped by what they break", async () => {
    const ns = await namespace({});
    for (const name of ["b", "a", "c"]) {
      const containers = name === "c" ? [privilegedContainer] : [plain];
      const res = await createPod(ns, pod(name, { containers }), false);
      expect(res.status, res.text).toBe(201);
    }
    const dry = await setLabels(ns, { [`${P}enforce`]: "baseline" }, true);
    expect(dry.status, dry.text).toBe(200);
    expect(warningsOf(dry)).toEqual([
      `existing pods in namespace "${ns}" violate the new PodSecurity enforce level "baseline:latest"`,
      "c: privileged",
    ]);
    const res = await setLabels(ns, { [`${P}enforce`]: "restricted" });
    expect(res.status, res.text).toBe(200);
    expect(warningsOf(res)).toEqual([
      `existing pods in namespace "${ns}" violate the new PodSecurity enforce level "restricted:latest"`,
      "a (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
      "c: privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
    ]);
    const relaxed = await setLabels(ns, { [`${P}enforce`]: "baseline" });
    expect(relaxed.status, relaxed.text).toBe(200);
    expect(warningsOf(relaxed)).toEqual([]);
  });
});
