/**
 * ServiceAccount admission on both servers (packages/server/src/admission/plugins/service-account.ts):
 * a new pod runs as `default` unless it names an account, gets the projected
 * `kube-api-access-<suffix>` token volume mounted in every container and init container unless
 * automounting is off on the pod or its account, takes its account's imagePullSecrets, and is refused
 * 403 when its account does not exist. kube-apiserver in test:real runs without
 * kube-controller-manager, so the suite creates the namespace's `default` account itself when absent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
type Json = any;

let t: TestTarget;
let ns: string;

const MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
/** The token volume as kube-apiserver 1.37 stores it (read from the real server's answer). */
const tokenVolume = (name: string) => ({
  name,
  projected: {
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
      { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
      {
        downwardAPI: {
          items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }],
        },
      },
    ],
    defaultMode: 420,
  },
});
const tokenMount = (name: string) => ({ name, readOnly: true, mountPath: MOUNT_PATH });

async function createAccount(body: Json): Promise<void> {
  const res = await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, { body });
  // `default` may already be there: the reference server's ServiceAccount controller makes it.
  expect([201, 409], res.text).toContain(res.status);
}

const createPod = (spec: Json, metadata: Json = {}) =>
  t.call("POST", `/api/v1/namespaces/${ns}/pods`, {
    body: { metadata: { name: uniqueName("pod"), ...metadata }, spec },
  });

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("sa-admission");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  await createAccount({ metadata: { name: "default" } });
  await createAccount({ metadata: { name: "quiet" }, automountServiceAccountToken: false });
  await createAccount({ metadata: { name: "puller" }, imagePullSecrets: [{ name: "registry" }] });
  await createAccount({
    metadata: { name: "strict", annotations: { "kubernetes.io/enforce-mountable-secrets": "true" } },
    secrets: [{ name: "allowed" }],
  });
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("ServiceAccount admission", () => {
  it("names `default` and mounts the kube-api-access volume in every container and init container", async () => {
    const res = await createPod({
      initContainers: [{ name: "init", image: "busybox" }],
      containers: [
        { name: "a", image: "busybox" },
        { name: "b", image: "busybox" },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const spec: Json = res.json.spec;
    expect(spec.serviceAccountName).toBe("default");
    expect(spec.serviceAccount).toBe("default");
    expect(spec.volumes).toHaveLength(1);
    const name: string = spec.volumes[0].name;
    expect(name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(spec.volumes[0]).toEqual(tokenVolume(name));
    for (const c of [...spec.initContainers, ...spec.containers])
      expect(c.volumeMounts, c.name).toEqual([tokenMount(name)]);
  });

  it("refuses a pod whose ServiceAccount does not exist with upstream's 403", async () => {
    const name = uniqueName("orphan");
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/pods`, {
      body: {
        metadata: { name },
        spec: { serviceAccountName: "missing", containers: [{ name: "c", image: "x" }] },
      },
    });
    expect(res.status, res.text).toBe(403);
    expect(res.json).toMatchObject({
      reason: "Forbidden",
      message: `pods "${name}" is forbidden: error looking up service account ${ns}/missing: serviceaccount "missing" not found`,
      details: { name, kind: "pods" },
    });
    expect((await t.call("GET", `/api/v1/namespaces/${ns}/pods/${name}`)).status).toBe(404);
  });

  it("mounts nothing when the pod says automountServiceAccountToken: false", async () => {
    const res = await createPod({
      automountServiceAccountToken: false,
      containers: [{ name: "c", image: "x" }],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.spec.serviceAccountName).toBe("default");
    expect(res.json.spec.volumes).toBeUndefined();
    expect(res.json.spec.containers[0].volumeMounts).toBeUndefined();
  });

  it("mounts nothing when the account says false, unless the pod says true", async () => {
    const off = await createPod({ serviceAccountName: "quiet", containers: [{ name: "c", image: "x" }] });
    expect(off.status, off.text).toBe(201);
    expect(off.json.spec.volumes).toBeUndefined();
    expect(off.json.spec.containers[0].volumeMounts).toBeUndefined();
    const on = await createPod({
      serviceAccountName: "quiet",
      automountServiceAccountToken: true,
      containers: [{ name: "c", image: "x" }],
    });
    expect(on.status, on.text).toBe(201);
    const name: string = on.json.spec.volumes[0].name;
    expect(on.json.spec.volumes).toEqual([tokenVolume(name)]);
    expect(on.json.spec.containers[0].volumeMounts).toEqual([tokenMount(name)]);
  });

  it("leaves a container that mounts something at the token path alone and reuses a kube-api-access volume", async () => {
    const own = await createPod({
      containers: [
        { name: "own", image: "x", volumeMounts: [{ name: "v", mountPath: MOUNT_PATH }] },
        { name: "plain", image: "x" },
      ],
      volumes: [{ name: "v", emptyDir: {} }],
    });
    expect(own.status, own.text).toBe(201);
    const [mine, token] = own.json.spec.volumes as Json[];
    expect(mine).toEqual({ name: "v", emptyDir: {} });
    expect(token).toEqual(tokenVolume(token.name));
    expect(own.json.spec.containers[0].volumeMounts).toEqual([{ name: "v", mountPath: MOUNT_PATH }]);
    expect(own.json.spec.containers[1].volumeMounts).toEqual([tokenMount(token.name)]);

    const reused = await createPod({
      containers: [{ name: "c", image: "x" }],
      volumes: [{ name: "kube-api-access-mine", emptyDir: {} }],
    });
    expect(reused.status, reused.text).toBe(201);
    expect(reused.json.spec.volumes).toEqual([{ name: "kube-api-access-mine", emptyDir: {} }]);
    expect(reused.json.spec.containers[0].volumeMounts).toEqual([tokenMount("kube-api-access-mine")]);
  });

  it("copies the account's imagePullSecrets and reads the deprecated serviceAccount field", async () => {
    const res = await createPod({
      serviceAccount: "puller",
      automountServiceAccountToken: false,
      containers: [{ name: "c", image: "x" }],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.spec).toMatchObject({
      serviceAccountName: "puller",
      serviceAccount: "puller",
      imagePullSecrets: [{ name: "registry" }],
    });
    const own = await createPod({
      serviceAccountName: "puller",
      automountServiceAccountToken: false,
      imagePullSecrets: [{ name: "mine" }],
      containers: [{ name: "c", image: "x" }],
    });
    expect(own.status, own.text).toBe(201);
    expect(own.json.spec.imagePullSecrets).toEqual([{ name: "mine" }]);
  });

  it("holds a pod to the Secrets an account with enforce-mountable-secrets lists", async () => {
    const env = (secret: string) => [{ name: "E", valueFrom: { secretKeyRef: { name: secret, key: "k" } } }];
    const name = uniqueName("strict");
    const byEnv = await t.call("POST", `/api/v1/namespaces/${ns}/pods?dryRun=All`, {
      body: {
        metadata: { name },
        spec: { serviceAccountName: "strict", containers: [{ name: "c", image: "x", env: env("other") }] },
      },
    });
    expect(byEnv.status, byEnv.text).toBe(403);
    expect(byEnv.json.message).toBe(
      `pods "${name}" is forbidden: container c with envVar E referencing secret.secretName="other" is not allowed because service account strict does not reference that secret`,
    );
    const byVolume = await t.call("POST", `/api/v1/namespaces/${ns}/pods?dryRun=All`, {
      body: {
        metadata: { name },
        spec: {
          serviceAccountName: "strict",
          containers: [{ name: "c", image: "x" }],
          volumes: [{ name: "v", secret: { secretName: "other" } }],
        },
      },
    });
    expect(byVolume.status, byVolume.text).toBe(403);
    expect(byVolume.json.message).toBe(
      `pods "${name}" is forbidden: volume with secret.secretName="other" is not allowed because service account strict does not reference that secret`,
    );
    const listed = await createPod({
      serviceAccountName: "strict",
      containers: [{ name: "c", image: "x", env: env("allowed") }],
    });
    expect(listed.status, listed.text).toBe(201);
  });

  it("refuses a mirror pod that names a ServiceAccount, before validation", async () => {
    const name = uniqueName("mirror");
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/pods?dryRun=All`, {
      body: {
        metadata: { name, annotations: { "kubernetes.io/config.mirror": "x" } },
        spec: { serviceAccountName: "default", containers: [{ name: "c", image: "x" }] },
      },
    });
    expect(res.status, res.text).toBe(403);
    expect(res.json.message).toBe(
      `pods "${name}" is forbidden: a mirror pod may not reference service accounts`,
    );
  });

  it("answers 404 for a pod in a namespace that does not exist, not the missing account", async () => {
    const missing = uniqueName("nowhere");
    const res = await t.call("POST", `/api/v1/namespaces/${missing}/pods`, {
      body: {
        metadata: { name: "p" },
        spec: { serviceAccountName: "x", containers: [{ name: "c", image: "x" }] },
      },
    });
    expect(res.status, res.text).toBe(404);
    expect(res.json.message).toBe(`namespaces "${missing}" not found`);
  });
});
