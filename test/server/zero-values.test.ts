/**
 * Zero scalars of built-in kinds as kube-apiserver stores them: it decodes a write into the kind's
 * Go struct, where a `""`, `0` or `false` in a non-pointer field cannot be told from no value. In
 * an `omitempty` field it is therefore defaulted as if absent, owned by no Update manager, and no
 * field of the stored object; a server-side apply still owns what it applied. A pointer field
 * (`replicas: 0`) keeps its zero value.
 */
import { afterAll, describe, expect, it } from "vitest";
import { useNamespaceSuite } from "../support/namespace-suite.js";
import { type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;

useNamespaceSuite("zero-values", (target, name) => {
  t = target;
  ns = name;
});

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

type Fields = { [k: string]: Fields };
const fieldSets = (obj: { metadata: { managedFields?: { manager: string; fieldsV1: Fields }[] } }) =>
  Object.fromEntries((obj.metadata.managedFields ?? []).map((m) => [m.manager, m.fieldsV1]));

/** A Deployment whose non-pointer omitempty scalars are sent as their zero values. */
function zeroDeployment(name: string) {
  const container = {
    name: "c",
    image: "nginx:1",
    stdin: false,
    tty: false,
    workingDir: "",
    imagePullPolicy: "",
    terminationMessagePath: "",
    ports: [{ containerPort: 80, hostPort: 0, name: "", protocol: "", hostIP: "" }],
  };
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, generateName: "" },
    spec: {
      replicas: 0,
      paused: false,
      minReadySeconds: 0,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { hostNetwork: false, hostname: "", priorityClassName: "", containers: [container] },
      },
    },
  };
}

const deployments = () => `/apis/apps/v1/namespaces/${ns}/deployments`;

describe("zero scalars in omitempty fields of built-in kinds", () => {
  it("are defaulted as if absent and stored as no field, with no managed field for them", async () => {
    const res = await t.call("POST", `${deployments()}?fieldManager=maker`, {
      body: zeroDeployment("zeros"),
    });
    expect(res.status, res.text).toBe(201);
    const { spec } = res.json;
    expect(spec.replicas).toBe(0);
    expect([spec.paused, spec.minReadySeconds, res.json.metadata.generateName]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const podSpec = spec.template.spec;
    expect([podSpec.hostNetwork, podSpec.hostname, podSpec.priorityClassName]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const [c] = podSpec.containers;
    expect([c.stdin, c.tty, c.workingDir]).toEqual([undefined, undefined, undefined]);
    expect(c.imagePullPolicy).toBe("IfNotPresent");
    expect(c.terminationMessagePath).toBe("/dev/termination-log");
    expect(c.ports).toEqual([{ containerPort: 80, protocol: "TCP" }]);
    const owned = fieldSets(res.json).maker as Fields;
    expect(Object.keys(owned["f:spec"] ?? {})).not.toContain("f:paused");
    const ownedContainer = owned["f:spec"]?.["f:template"]?.["f:spec"]?.["f:containers"]?.['k:{"name":"c"}'];
    expect(Object.keys(ownedContainer ?? {})).not.toContain("f:stdin");
    expect(Object.keys(ownedContainer ?? {})).toContain("f:imagePullPolicy");
  });

  it("are owned by the applier that applied them, and stored as no field", async () => {
    const res = await t.call("PATCH", `${deployments()}/applied?fieldManager=applier`, {
      body: zeroDeployment("applied"),
      contentType: "application/apply-patch+yaml",
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.spec.paused).toBeUndefined();
    const [c] = res.json.spec.template.spec.containers;
    expect([c.stdin, c.workingDir, c.imagePullPolicy]).toEqual([undefined, undefined, "IfNotPresent"]);
    const owned = fieldSets(res.json).applier as Fields;
    expect(Object.keys(owned["f:spec"] ?? {})).toEqual(
      expect.arrayContaining(["f:paused", "f:minReadySeconds", "f:replicas"]),
    );
    const ownedContainer = owned["f:spec"]?.["f:template"]?.["f:spec"]?.["f:containers"]?.['k:{"name":"c"}'];
    expect(Object.keys(ownedContainer ?? {})).toEqual(
      expect.arrayContaining(["f:stdin", "f:tty", "f:workingDir", "f:imagePullPolicy"]),
    );
  });

  it("leave a field the update set to its zero value out, and a patch to false removes it", async () => {
    const body = zeroDeployment("toggled");
    body.spec.paused = true as never;
    const created = await t.call("POST", deployments(), { body });
    expect(created.status, created.text).toBe(201);
    expect(created.json.spec.paused).toBe(true);
    const patched = await t.call("PATCH", `${deployments()}/toggled`, {
      body: { spec: { paused: false } },
      contentType: "application/merge-patch+json",
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.spec.paused).toBeUndefined();
  });

  it("drop a webhook's empty caBundle", async () => {
    const name = uniqueName("zero-webhook");
    const path = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
    cleanups.push(() => t.call("DELETE", `${path}/${name}`));
    const webhook = {
      name: "zero.example.com",
      clientConfig: { url: "https://zero.example.com/validate", caBundle: "" },
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
      // Matches nothing: no rules.
      rules: [],
    };
    const res = await t.call("POST", path, { body: { metadata: { name }, webhooks: [webhook] } });
    expect(res.status, res.text).toBe(201);
    expect(res.json.webhooks[0].clientConfig).toEqual({ url: "https://zero.example.com/validate" });
    expect(res.json.webhooks[0].rules).toBeUndefined();
  });
});
