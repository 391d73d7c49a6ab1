// Admission and validation tested on the embedded API server: a CRD's CEL rule, a
// ValidatingAdmissionPolicy, a MutatingAdmissionPolicy, and admission and conversion webhooks
// served from this test process over HTTPS with their own CA. docs/guides/testing-admission.md
// quotes this file block by block (scripts/ci/check-doc-examples.ts keeps the two equal).

// #region definition
import { type RunningServer, startServer } from "@kubesdk/server";
import { defineCustomResource, established, Kube } from "kubesdk";
import { deny, silentLogger, WebhookServer } from "kubesdk/runtime";
import Type from "typebox";
import { afterAll, beforeAll, expect, it } from "vitest";

const webApp = defineCustomResource({
  group: "example.com",
  kind: "WebApp",
  scope: "Namespaced",
  versions: {
    v1alpha1: {
      schema: Type.Object({
        spec: Type.Object({
          image: Type.String(),
          replicas: Type.Optional(Type.Integer()),
          port: Type.Optional(Type.Integer()),
        }),
      }),
    },
    v1: {
      storage: true,
      schema: Type.Object({
        spec: Type.Object(
          {
            image: Type.String(),
            replicas: Type.Optional(Type.Integer()),
            maxReplicas: Type.Optional(Type.Integer()),
            http: Type.Optional(Type.Object({ port: Type.Integer() })),
          },
          {
            // A CEL rule: the embedded server compiles it when the CRD is written and runs it on every write.
            "x-kubernetes-validations": [
              {
                rule: "!has(self.maxReplicas) || !has(self.replicas) || self.replicas <= self.maxReplicas",
                message: "replicas must not exceed maxReplicas",
              },
            ],
          },
        ),
      }),
    },
  },
});
// #endregion definition

// #region webhooks
// One HTTPS server for every webhook, with a self-signed CA made at start (its `caBundle`).
const webhooks = new WebhookServer({
  port: 0,
  tls: { selfSigned: { hosts: ["127.0.0.1"] } },
  logger: silentLogger,
});
webhooks.mutating(webApp, (app) => {
  app.spec.replicas ??= 1;
  return app;
});
webhooks.validating(webApp, ({ object }) =>
  object?.spec.image.endsWith(":latest") ? deny("spec.image: name a tag other than latest") : undefined,
);
webhooks.conversion(webApp, {
  hub: "v1",
  spokes: {
    v1alpha1: {
      toHub: ({ spec: { port, ...spec }, ...app }) => ({
        ...app,
        spec: { ...spec, ...(port !== undefined ? { http: { port } } : {}) },
      }),
      fromHub: ({ spec: { http, maxReplicas: _, ...spec }, ...app }) => ({
        ...app,
        spec: { ...spec, ...(http !== undefined ? { port: http.port } : {}) },
      }),
    },
  },
});
// #endregion webhooks

// #region setup
let server: RunningServer;
let kube: Kube;

beforeAll(async () => {
  await webhooks.start();
  server = await startServer();
  kube = await Kube.fromKubeconfigText(server, { overrides: { namespace: "default" } });

  // The CRD with `conversion: Webhook` pointing at this process, then the admission webhooks.
  const crds = kube.resource("apiextensions.k8s.io/v1", "CustomResourceDefinition");
  await crds.create(webhooks.customResourceDefinition(webApp));
  await kube.waitFor(crds, webApp.name, established());
  const admission = "admissionregistration.k8s.io/v1";
  await kube
    .resource(admission, "MutatingWebhookConfiguration")
    .create(webhooks.mutatingWebhookConfiguration("webapp-defaults"));
  await kube
    .resource(admission, "ValidatingWebhookConfiguration")
    .create(webhooks.validatingWebhookConfiguration("webapp-checks"));

  // Policies: CEL run by the API server itself, no webhook needed.
  const webApps = {
    apiGroups: ["example.com"],
    apiVersions: ["*"],
    operations: ["CREATE", "UPDATE"],
    resources: ["webapps"],
  };
  await kube.resource(admission, "ValidatingAdmissionPolicy").create({
    metadata: { name: "webapp-replicas" },
    spec: {
      failurePolicy: "Fail",
      matchConstraints: { resourceRules: [webApps] },
      validations: [{ expression: "object.spec.replicas <= 5", message: "at most 5 replicas" }],
    },
  });
  await kube.resource(admission, "ValidatingAdmissionPolicyBinding").create({
    metadata: { name: "webapp-replicas" },
    spec: { policyName: "webapp-replicas", validationActions: ["Deny"] },
  });
  await kube.resource(admission, "MutatingAdmissionPolicy").create({
    metadata: { name: "webapp-team" },
    spec: {
      failurePolicy: "Fail",
      reinvocationPolicy: "Never",
      matchConstraints: { resourceRules: [webApps] },
      mutations: [
        {
          patchType: "ApplyConfiguration",
          applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"team": "web"}}}' },
        },
      ],
    },
  });
  await kube
    .resource(admission, "MutatingAdmissionPolicyBinding")
    .create({ metadata: { name: "webapp-team" }, spec: { policyName: "webapp-team" } });
});

afterAll(async () => {
  await kube.close();
  await server.stop();
  await webhooks.stop();
});
// #endregion setup

// #region tests
// A refusal is an ApiError carrying the server's Status: its code, reason and message.
const refused = (statusCode: number, message: string) => expect.objectContaining({ statusCode, message });

it("a CRD's CEL rule refuses an invalid object with a 422", async () => {
  const app = { metadata: { name: "too-many" }, spec: { image: "web:1.0", replicas: 4, maxReplicas: 2 } };
  await expect(kube.custom(webApp).create(app)).rejects.toEqual(
    refused(
      422,
      'WebApp.example.com "too-many" is invalid: spec: Invalid value: replicas must not exceed maxReplicas',
    ),
  );
});

it("a ValidatingAdmissionPolicy refuses what its expression does not allow", async () => {
  const app = { metadata: { name: "huge" }, spec: { image: "web:1.0", replicas: 9 } };
  await expect(kube.custom(webApp).create(app)).rejects.toEqual(
    refused(
      422,
      "webapps.example.com \"huge\" is forbidden: ValidatingAdmissionPolicy 'webapp-replicas' with binding 'webapp-replicas' denied request: at most 5 replicas",
    ),
  );
});

it("a validating webhook refuses with its own message", async () => {
  const app = { metadata: { name: "latest" }, spec: { image: "web:latest" } };
  await expect(kube.custom(webApp).create(app)).rejects.toEqual(
    refused(
      403,
      'admission webhook "vwebapp.example.com" denied the request: spec.image: name a tag other than latest',
    ),
  );
});

it("a mutating webhook and a MutatingAdmissionPolicy change the object before it is stored", async () => {
  await kube.custom(webApp).create({ metadata: { name: "web" }, spec: { image: "web:1.0" } });
  const stored = await kube.custom(webApp).get("web");
  expect(stored.spec.replicas).toBe(1);
  expect(stored.metadata?.labels).toEqual({ team: "web" });
});

it("a read in another version goes through the conversion webhook", async () => {
  await kube
    .custom(webApp)
    .create({ metadata: { name: "served" }, spec: { image: "web:1.0", http: { port: 8080 } } });
  const old = await kube.custom(webApp, "v1alpha1").get("served");
  expect(old.apiVersion).toBe("example.com/v1alpha1");
  expect(old.spec).toEqual({ image: "web:1.0", replicas: 1, port: 8080 });
});
// #endregion tests
