/**
 * The warnings kube-apiserver answers for a Pod it accepts (Warning headers), as
 * packages/server/src/validation/pod-warnings.ts computes them.
 */
import { describe, expect, it } from "vitest";
import { warningsOf } from "./admission-policy-support.js";
import { podValidationSuite } from "./pod-validation-suite.js";

const suite = podValidationSuite("pod-warnings");
const container = (extra: Record<string, unknown> = {}) => ({ name: "c", image: "busybox", ...extra });
const pod = (spec: Record<string, unknown>, annotations?: Record<string, string>) => ({
  metadata: { name: "w", ...(annotations ? { annotations } : {}) },
  spec: { containers: [container()], ...spec },
});

const ROWS: { name: string; body: Record<string, unknown>; warnings: string[] }[] = [
  { name: "no warning for a plain pod", body: pod({}), warnings: [] },
  {
    name: "deprecated node labels in the node selector, affinity and spread constraints",
    body: pod({
      nodeSelector: { "beta.kubernetes.io/arch": "amd64" },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: "failure-domain.beta.kubernetes.io/zone", operator: "Exists" }] },
            ],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 1,
              preference: { matchExpressions: [{ key: "beta.kubernetes.io/os", operator: "Exists" }] },
            },
          ],
        },
      },
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: "beta.kubernetes.io/instance-type", whenUnsatisfiable: "DoNotSchedule" },
      ],
    }),
    warnings: [
      'spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].key: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead',
      'spec.topologySpreadConstraints[0].topologyKey: beta.kubernetes.io/instance-type is deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
      "spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod",
    ],
  },
  {
    name: "deprecated annotations and volume plugins, duplicate aliases and pull secrets",
    body: pod(
      {
        volumes: [{ name: "g", gitRepo: { repository: "https://example.com/r.git" } }],
        hostAliases: [
          { ip: "10.0.0.1", hostnames: ["a"] },
          { ip: "10.0.0.1", hostnames: ["b"] },
        ],
        imagePullSecrets: [{ name: "s" }, { name: "s" }],
      },
      {
        "scheduler.alpha.kubernetes.io/critical-pod": "",
        "seccomp.security.alpha.kubernetes.io/pod": "runtime/default",
      },
    ),
    warnings: [
      'metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
      "spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+",
      'spec.hostAliases[1].ip: duplicate ip "10.0.0.1"',
      'spec.imagePullSecrets[1].name: duplicate name "s"',
      'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
    ],
  },
  {
    name: "fractional byte quantities and an environment variable hiding another",
    body: pod({
      containers: [
        container({
          resources: { requests: { memory: "1.5" }, limits: { memory: "2", "ephemeral-storage": "100m" } },
          env: [
            { name: "A", value: "1" },
            { name: "A", value: "2" },
            { name: "B", value: "x" },
            { name: "B", value: "$(B)y" },
          ],
        }),
      ],
    }),
    warnings: [
      'spec.containers[0].resources.requests[memory]: fractional byte value "1500m" is invalid, must be an integer',
      'spec.containers[0].resources.limits[ephemeral-storage]: fractional byte value "100m" is invalid, must be an integer',
      'spec.containers[0].resources.requests[ephemeral-storage]: fractional byte value "100m" is invalid, must be an integer',
      'spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply',
    ],
  },
];

describe("Pod warnings", () => {
  it.each(ROWS)("$name", async (row) => {
    const [t, PODS] = [suite.target(), suite.podPath()];
    const res = await t.call("POST", `${PODS}?dryRun=All`, { body: row.body });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(warningsOf(res)).toEqual(row.warnings);
  });

  it("an update that changes nothing answers none", async () => {
    const [t, PODS] = [suite.target(), suite.podPath()];
    const created = await t.call("POST", PODS, {
      body: pod({ nodeSelector: { "beta.kubernetes.io/os": "linux" } }),
    });
    expect(created.status).toBe(201);
    const res = await t.call("PUT", `${PODS}/w?dryRun=All`, { body: created.json });
    await t.call("DELETE", `${PODS}/w?gracePeriodSeconds=0`);
    expect(res.status).toBe(200);
    expect(warningsOf(created)).toEqual([
      'spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
    ]);
    expect(warningsOf(res)).toEqual([]);
  });
});
