/** Spec cases of core/v1: Pods, PodTemplates, ReplicationControllers, ConfigMaps, Secrets and more. */

import { coreClusterVariants } from "./core-cluster.js";
import { coreServiceVariants } from "./core-services.js";
import { podSpecVariants } from "./pod-bodies.js";
import { type Body, type Random, type SpecGroup, word } from "./types.js";

const containers = [{ name: "c", image: "busybox" }];
const rcTemplate = (spec: Body = { containers }): Body => ({ metadata: { labels: { app: "x" } }, spec });

function podVariants(rnd: Random): [string, Body][] {
  return [
    ...podSpecVariants(rnd).map(([v, spec]): [string, Body] => [v, { spec }]),
    ["pod-ephemeral-on-create", { spec: { containers, ephemeralContainers: [{ name: "e", image: "i" }] } }],
    ["pod-grace-negative", { spec: { containers, terminationGracePeriodSeconds: -1 } }],
    ["pod-node-name-gated", { spec: { containers, nodeName: "n", schedulingGates: [{ name: "g" }] } }],
  ];
}

function podTemplateVariants(rnd: Random): [string, Body][] {
  return podSpecVariants(rnd)
    .filter(() => rnd() < 0.3)
    .map(([v, spec]): [string, Body] => [v, { template: { spec } }]);
}

function rcVariants(rnd: Random): [string, Body][] {
  return [
    ["valid-plain", { spec: { selector: { app: "x" }, template: rcTemplate() } }],
    ["valid-selector-from-template", { spec: { template: rcTemplate() } }],
    ["selector-and-labels-missing", { spec: { template: { spec: { containers } } } }],
    ["template-missing", { spec: { selector: { app: "x" } } }],
    ["selector-mismatch", { spec: { selector: { app: "y" }, template: rcTemplate() } }],
    ["replicas-negative", { spec: { replicas: -1, template: rcTemplate() } }],
    ["min-ready-negative", { spec: { minReadySeconds: -1, template: rcTemplate() } }],
    ["restart-never", { spec: { template: rcTemplate({ containers, restartPolicy: "Never" }) } }],
    ["deadline", { spec: { template: rcTemplate({ containers, activeDeadlineSeconds: 5 }) } }],
    [
      "template-labels-invalid",
      {
        spec: {
          selector: { app: "x" },
          template: { metadata: { labels: { app: "x", "-bad": "y" } }, spec: { containers } },
        },
      },
    ],
    ...podSpecVariants(rnd)
      .filter(() => rnd() < 0.2)
      .map(([v, spec]): [string, Body] => [`template-${v}`, { spec: { template: rcTemplate(spec) } }]),
  ];
}

function configMapVariants(rnd: Random): [string, Body][] {
  const w = word(rnd);
  return [
    ["valid-keys", { data: { [w]: "v", "a.b_c-D": "v" }, binaryData: { bin: "AAE=" } }],
    ["key-slash", { data: { "a/b": "v" } }],
    ["key-space", { data: { "a b": "v" } }],
    ["key-dot", { data: { ".": "v" } }],
    ["key-dot-dot", { data: { "..": "v" } }],
    ["key-dot-dot-prefix", { data: { "..a": "v" } }],
    ["key-long", { data: { ["k".repeat(254)]: "v" } }],
    ["key-in-both", { data: { [w]: "v" }, binaryData: { [w]: "AAE=" } }],
    ["binary-key-invalid", { binaryData: { "a:b": "AAE=" } }],
  ];
}

const b64 = (s: string) => Buffer.from(s).toString("base64");

function secretVariants(rnd: Random): [string, Body][] {
  return [
    ["valid-opaque", { data: { [word(rnd)]: b64("x") } }],
    ["valid-tls", { type: "kubernetes.io/tls", data: { "tls.crt": b64("c"), "tls.key": b64("k") } }],
    ["valid-basic-auth", { type: "kubernetes.io/basic-auth", data: { username: b64("u") } }],
    ["valid-custom-type", { type: `example.com/${word(rnd)}` }],
    ["key-invalid", { data: { "a/b": b64("x") } }],
    ["tls-missing-key", { type: "kubernetes.io/tls", data: { "tls.crt": b64("c") } }],
    ["tls-empty", { type: "kubernetes.io/tls" }],
    ["basic-auth-empty", { type: "kubernetes.io/basic-auth" }],
    ["ssh-auth-empty", { type: "kubernetes.io/ssh-auth" }],
    ["dockerconfigjson-missing", { type: "kubernetes.io/dockerconfigjson" }],
    ["service-account-token-no-annotation", { type: "kubernetes.io/service-account-token" }],
    ["string-data-key-invalid", { stringData: { "a b": "x" } }],
  ];
}

export const core: SpecGroup = {
  name: "core",
  kinds: [
    { id: "core/pods", variants: podVariants },
    { id: "core/podtemplates", variants: podTemplateVariants },
    { id: "core/replicationcontrollers", variants: rcVariants },
    { id: "core/configmaps", variants: configMapVariants },
    { id: "core/secrets", variants: secretVariants },
    ...coreServiceVariants,
    ...coreClusterVariants,
  ],
};
