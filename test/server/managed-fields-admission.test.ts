/**
 * Who owns what mutating admission and the registry add, on both targets. kube-apiserver records
 * a write's managed fields before mutating admission (create.go, update.go, patch.go), so what an
 * admission plugin, a MutatingAdmissionPolicy, a mutating webhook or the registry's allocation adds
 * is owned by no manager; what the request sent, with the defaults of decoding, is the requester's.
 * Server-side apply owns only what was applied.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patch, WebhookSuite, webhookFor } from "../support/admission-webhooks.js";
import type { CallResult, TestTarget } from "../support/target.js";
import { uniqueName } from "../support/target.js";
import { configMapsIn, dryRunConfigMap, probeUntil } from "./admission-policy-support.js";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
type Json = any;

let s: WebhookSuite;
let t: TestTarget;
let ns: string;
const cleanup: string[] = [];

beforeAll(async () => {
  s = await WebhookSuite.start();
  t = s.t;
  ns = await s.namespace("mf-admission");
  // kube-apiserver in test:real runs without kube-controller-manager: the pods' account is made here.
  const sa = await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, {
    body: { metadata: { name: "default" } },
  });
  expect([201, 409], sa.text).toContain(sa.status);
});
afterAll(async () => {
  for (const path of cleanup.reverse()) await t.call("DELETE", path);
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await s.close();
});

/** The fieldsV1 of `manager`'s entry (undefined when it has none). */
function fieldsOf(obj: Json, manager: string): Json {
  return (obj.metadata.managedFields ?? []).find((e: Json) => e.manager === manager)?.fieldsV1;
}

/** Every manager's field paths, flattened to strings ("f:spec.f:volumes"), for "owned by nobody". */
function allOwnedPaths(obj: Json): string[] {
  const out: string[] = [];
  const walk = (set: Json, prefix: string) => {
    for (const [k, v] of Object.entries(set ?? {})) {
      const path = prefix === "" ? k : `${prefix}.${k}`;
      out.push(path);
      walk(v, path);
    }
  };
  for (const e of obj.metadata.managedFields ?? []) walk(e.fieldsV1, "");
  return out;
}

function created(res: CallResult): Json {
  expect(res.status, res.text).toBe(201);
  return res.json;
}

const podPath = () => `/api/v1/namespaces/${ns}/pods`;

describe("a create's managed fields leave out what admission adds", () => {
  it("a pod's service-account volume, tolerations and priority are no manager's; its defaults are the creator's", async () => {
    const pod = created(
      await t.call("POST", `${podPath()}?fieldManager=creator`, {
        body: {
          metadata: { name: uniqueName("pod") },
          spec: { containers: [{ name: "c", image: "registry.k8s.io/pause:3.10" }] },
        },
      }),
    );
    // What the admission plugins added is there...
    expect(pod.spec.serviceAccountName).toBe("default");
    expect(pod.spec.volumes.map((v: Json) => v.name)).toEqual([expect.stringMatching(/^kube-api-access-/)]);
    expect(pod.spec.containers[0].volumeMounts).toHaveLength(1);
    expect(pod.spec.tolerations).toHaveLength(2);
    expect(pod.spec.priority).toBe(0);
    expect(pod.spec.preemptionPolicy).toBe("PreemptLowerPriority");
    // ...and owned by nobody.
    const spec = fieldsOf(pod, "creator")["f:spec"];
    for (const added of [
      "f:serviceAccountName",
      "f:serviceAccount",
      "f:volumes",
      "f:tolerations",
      "f:priority",
      "f:preemptionPolicy",
    ])
      expect(spec, added).not.toHaveProperty([added]);
    const container = spec["f:containers"]['k:{"name":"c"}'];
    expect(container).not.toHaveProperty(["f:volumeMounts"]);
    // What the request sent and what decoding defaults are the creator's.
    expect(container).toHaveProperty(["f:image"]);
    expect(container).toHaveProperty(["f:imagePullPolicy"]);
    expect(container).toHaveProperty(["f:terminationMessagePath"]);
    expect(spec).toHaveProperty(["f:restartPolicy"]);
    expect(spec).toHaveProperty(["f:enableServiceLinks"]);
    expect(allOwnedPaths(pod).filter((p) => p.includes("kube-api-access"))).toEqual([]);
  });

  it("a pod's own volume and mount are the creator's, the token volume and mount beside them nobody's", async () => {
    const pod = created(
      await t.call("POST", `${podPath()}?fieldManager=creator`, {
        body: {
          metadata: { name: uniqueName("pod") },
          spec: {
            containers: [
              {
                name: "c",
                image: "registry.k8s.io/pause:3.10",
                volumeMounts: [{ name: "scratch", mountPath: "/scratch" }],
              },
            ],
            volumes: [{ name: "scratch", emptyDir: {} }],
          },
        },
      }),
    );
    expect(pod.spec.volumes.map((v: Json) => v.name)).toEqual([
      "scratch",
      expect.stringMatching(/^kube-api-access-/),
    ]);
    const spec = fieldsOf(pod, "creator")["f:spec"];
    expect(Object.keys(spec["f:volumes"])).toEqual([".", 'k:{"name":"scratch"}']);
    const mounts = spec["f:containers"]['k:{"name":"c"}']["f:volumeMounts"];
    expect(Object.keys(mounts)).toEqual([".", 'k:{"mountPath":"/scratch"}']);
  });

  it("a Service's allocated clusterIP, clusterIPs and ipFamilies are no manager's unless sent", async () => {
    const svcPath = `/api/v1/namespaces/${ns}/services`;
    const allocated = created(
      await t.call("POST", `${svcPath}?fieldManager=creator`, {
        body: {
          metadata: { name: uniqueName("svc") },
          spec: { selector: { app: "x" }, ports: [{ port: 80 }] },
        },
      }),
    );
    expect(allocated.spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(allocated.spec.clusterIPs).toEqual([allocated.spec.clusterIP]);
    expect(allocated.spec.ipFamilies).toEqual(["IPv4"]);
    const spec = fieldsOf(allocated, "creator")["f:spec"];
    for (const field of ["f:clusterIP", "f:clusterIPs", "f:ipFamilies", "f:ipFamilyPolicy"])
      expect(spec, field).not.toHaveProperty([field]);
    // The request's fields and decoding's defaults.
    for (const field of ["f:selector", "f:ports", "f:type", "f:sessionAffinity", "f:internalTrafficPolicy"])
      expect(spec, field).toHaveProperty([field]);
    const headless = created(
      await t.call("POST", `${svcPath}?fieldManager=creator`, {
        body: {
          metadata: { name: uniqueName("svc") },
          spec: { clusterIP: "None", selector: { app: "x" }, ports: [{ port: 80 }] },
        },
      }),
    );
    expect(fieldsOf(headless, "creator")["f:spec"]).toHaveProperty(["f:clusterIP"]);
    expect(fieldsOf(headless, "creator")["f:spec"]).not.toHaveProperty(["f:clusterIPs"]);
  });

  it("a new Node's not-ready taint from TaintNodesByCondition is no manager's", async () => {
    const name = uniqueName("node");
    const node = created(
      await t.call("POST", "/api/v1/nodes?fieldManager=creator", {
        body: { metadata: { name, labels: { role: "probe" } }, spec: { unschedulable: true } },
      }),
    );
    cleanup.push(`/api/v1/nodes/${name}`);
    expect(node.spec.taints).toContainEqual({ key: "node.kubernetes.io/not-ready", effect: "NoSchedule" });
    expect(fieldsOf(node, "creator")).toEqual({
      "f:metadata": { "f:labels": { ".": {}, "f:role": {} } },
      "f:spec": { "f:unschedulable": {} },
    });
  });
});

/** A pod template labelled app=mf, with one container and `spec`'s extra fields. */
const podTemplate = (spec: Json = {}) => ({
  metadata: { labels: { app: "mf" } },
  spec: { ...spec, containers: [{ name: "c", image: "registry.k8s.io/pause:3.10" }] },
});

describe("decoding's defaults are the creator's, the strategy's additions nobody's", () => {
  it("a namespace's name label is the creator's, its kubernetes finalizer nobody's", async () => {
    const name = uniqueName("mf-ns");
    const made = created(
      await t.call("POST", "/api/v1/namespaces?fieldManager=creator", { body: { metadata: { name } } }),
    );
    cleanup.push(`/api/v1/namespaces/${name}`);
    expect(made.spec.finalizers).toEqual(["kubernetes"]);
    expect(fieldsOf(made, "creator")).toEqual({
      "f:metadata": { "f:labels": { ".": {}, "f:kubernetes.io/metadata.name": {} } },
    });
  });

  it("a Job's labels copied from its template are the creator's, the generated ones nobody's", async () => {
    const job = created(
      await t.call("POST", `/apis/batch/v1/namespaces/${ns}/jobs?fieldManager=creator`, {
        body: {
          metadata: { name: uniqueName("job") },
          spec: {
            template: podTemplate({ restartPolicy: "Never" }),
          },
        },
      }),
    );
    expect(job.metadata.labels).toMatchObject({ app: "mf", "job-name": job.metadata.name });
    const owned = fieldsOf(job, "creator");
    expect(owned["f:metadata"]).toEqual({ "f:labels": { ".": {}, "f:app": {} } });
    expect(owned["f:spec"]).not.toHaveProperty(["f:selector"]);
    expect(owned["f:spec"]["f:template"]["f:metadata"]).toEqual({ "f:labels": { ".": {}, "f:app": {} } });
  });

  it("a DaemonSet's template-generation annotation is the creator's, as decoding writes it", async () => {
    const ds = created(
      await t.call("POST", `/apis/apps/v1/namespaces/${ns}/daemonsets?fieldManager=creator`, {
        body: {
          metadata: { name: uniqueName("ds") },
          spec: {
            selector: { matchLabels: { app: "mf" } },
            template: podTemplate(),
          },
        },
      }),
    );
    expect(ds.metadata.annotations).toEqual({ "deprecated.daemonset.template.generation": "1" });
    expect(fieldsOf(ds, "creator")["f:metadata"]).toEqual({
      "f:annotations": { ".": {}, "f:deprecated.daemonset.template.generation": {} },
    });
  });
});

/** A policy adding label `seen` (the number of data keys) to every ConfigMap written in `inNs`. */
async function countingPolicy(inNs: string): Promise<void> {
  const name = uniqueName("mf-map");
  const admission = "/apis/admissionregistration.k8s.io/v1";
  const policy = await t.call("POST", `${admission}/mutatingadmissionpolicies`, {
    body: {
      metadata: { name },
      spec: {
        failurePolicy: "Fail",
        reinvocationPolicy: "Never",
        matchConstraints: configMapsIn(inNs),
        mutations: [
          {
            patchType: "ApplyConfiguration",
            applyConfiguration: {
              expression: `Object{metadata: Object.metadata{labels: {"seen": string(size(object.data))}}}`,
            },
          },
        ],
      },
    },
  });
  expect(policy.status, policy.text).toBe(201);
  cleanup.push(`${admission}/mutatingadmissionpolicies/${name}`);
  const binding = await t.call("POST", `${admission}/mutatingadmissionpolicybindings`, {
    body: { metadata: { name: `${name}-b` }, spec: { policyName: name } },
  });
  expect(binding.status, binding.text).toBe(201);
  cleanup.push(`${admission}/mutatingadmissionpolicybindings/${name}-b`);
  await probeUntil(
    () => dryRunConfigMap(t, inNs, { metadata: { name: "probe" }, data: { probe: "1" } }),
    (res) => res.status === 201 && res.json.metadata?.labels?.seen !== undefined,
    `policy ${name}`,
  );
}

describe("an update's and a patch's managed fields leave out what admission changes", () => {
  it("a MutatingAdmissionPolicy's label is no manager's on create, update, patch and apply", async () => {
    const policyNs = await s.namespace("mf-policy");
    await countingPolicy(policyNs);
    const cms = `/api/v1/namespaces/${policyNs}/configmaps`;
    const made = created(
      await t.call("POST", `${cms}?fieldManager=alice`, {
        body: { metadata: { name: "counted", labels: { own: "1" } }, data: { a: "1" } },
      }),
    );
    expect(made.metadata.labels).toEqual({ own: "1", seen: "1" });
    expect(fieldsOf(made, "alice")).toEqual({
      "f:data": { ".": {}, "f:a": {} },
      "f:metadata": { "f:labels": { ".": {}, "f:own": {} } },
    });
    const patched = await t.call("PATCH", `${cms}/counted?fieldManager=bob`, {
      body: { data: { b: "2" } },
      contentType: "application/merge-patch+json",
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.metadata.labels.seen).toBe("2");
    expect(fieldsOf(patched.json, "bob")).toEqual({ "f:data": { "f:b": {} } });
    // A PUT sends back what it read (seen: "2"), changes a value and adds a key: seen becomes "3".
    const read = patched.json;
    const put = await t.call("PUT", `${cms}/counted?fieldManager=carol`, {
      body: { ...read, data: { ...read.data, a: "changed", c: "3" } },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json.metadata.labels.seen).toBe("3");
    expect(fieldsOf(put.json, "carol")).toEqual({ "f:data": { "f:a": {}, "f:c": {} } });
    const applied = await t.call("PATCH", `${cms}/counted?fieldManager=dave&force=true`, {
      body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "counted" }, data: { d: "4" } },
      contentType: "application/apply-patch+yaml",
    });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.json.metadata.labels.seen).toBe("4");
    expect(fieldsOf(applied.json, "dave")).toEqual({ "f:data": { "f:d": {} } });
    expect(allOwnedPaths(applied.json).filter((p) => p.includes("f:seen"))).toEqual([]);
  });

  it("a mutating webhook's additions are no manager's on create and update", async () => {
    const hookNs = await s.namespace("mf-webhook");
    const path = `/mark-${hookNs}`;
    // Adds data key `marked` on every write (its value the number of data keys the request had).
    s.hook.handle(path, (review: Json) => {
      const size = Object.keys(review.request.object.data ?? {}).length;
      return patch(review, [{ op: "add", path: "/data/marked", value: String(size) }]);
    });
    await s.install("mutating", hookNs, hookNs, [
      webhookFor(s.hook, "mark.kubesdk.test", path, hookNs, {
        rules: [
          {
            operations: ["CREATE", "UPDATE"],
            apiGroups: [""],
            apiVersions: ["v1"],
            resources: ["configmaps"],
          },
        ],
      }),
    ]);
    const cms = `/api/v1/namespaces/${hookNs}/configmaps`;
    const made = created(
      await t.call("POST", `${cms}?fieldManager=alice`, {
        body: { metadata: { name: "marked" }, data: { a: "1" } },
      }),
    );
    expect(made.data).toEqual({ a: "1", marked: "1" });
    expect(fieldsOf(made, "alice")).toEqual({ "f:data": { ".": {}, "f:a": {} } });
    const patched = await t.call("PATCH", `${cms}/marked?fieldManager=bob`, {
      body: { data: { b: "2" } },
      contentType: "application/merge-patch+json",
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.data).toEqual({ a: "1", b: "2", marked: "3" });
    expect(fieldsOf(patched.json, "bob")).toEqual({ "f:data": { "f:b": {} } });
    expect(allOwnedPaths(patched.json).filter((p) => p.includes("f:marked"))).toEqual([]);
  });
});
