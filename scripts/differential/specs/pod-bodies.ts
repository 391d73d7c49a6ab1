/**
 * Pod spec variants shared by every kind with a pod template: each is [variant, pod spec], valid
 * ones first. Workload groups put them under their template; core puts them in Pods.
 */

import { podSpecFieldVariants } from "./pod-env-bodies.js";
import { podSchedulingVariants } from "./pod-scheduling-bodies.js";
import { type Body, pick, type Random, word } from "./types.js";

const c = (extra: Body = {}): Body => ({ name: "c", image: "busybox", ...extra });

export function podSpecVariants(rnd: Random): [string, Body][] {
  const w = () => word(rnd);
  const port = 1 + Math.floor(rnd() * 65535);
  return [
    ["pod-valid-plain", { containers: [c()] }],
    ["pod-valid-ports", { containers: [c({ ports: [{ containerPort: port, name: "http" }] })] }],
    ["pod-valid-env", { containers: [c({ env: [{ name: `${w()}_X`, value: "v" }, { name: "a.b-c" }] })] }],
    [
      "pod-valid-resources",
      { containers: [c({ resources: { requests: { cpu: "100m" }, limits: { cpu: "1" } } })] },
    ],
    [
      "pod-valid-volume",
      {
        volumes: [{ name: "v", emptyDir: {} }],
        containers: [c({ volumeMounts: [{ name: "v", mountPath: "/v" }] })],
      },
    ],
    [
      "pod-valid-probe",
      {
        containers: [
          c({ livenessProbe: { httpGet: { port: 8080 } }, readinessProbe: { tcpSocket: { port: "http" } } }),
        ],
      },
    ],
    ["pod-valid-init", { initContainers: [c({ name: "i" })], containers: [c()] }],
    [
      "pod-valid-sidecar",
      {
        initContainers: [
          c({ name: "s", restartPolicy: "Always", startupProbe: { exec: { command: ["true"] } } }),
        ],
        containers: [c()],
      },
    ],
    ["pod-containers-missing", {}],
    ["pod-containers-empty", { containers: [] }],
    ["pod-container-name-empty", { containers: [c({ name: "" })] }],
    ["pod-container-name-upper", { containers: [c({ name: `${w()}Up` })] }],
    ["pod-container-name-long", { containers: [c({ name: "a".repeat(64) })] }],
    ["pod-container-name-dot", { containers: [c({ name: "a.b" })] }],
    ["pod-container-name-duplicate", { containers: [c(), c()] }],
    ["pod-container-name-init-duplicate", { initContainers: [c()], containers: [c()] }],
    ["pod-image-missing", { containers: [{ name: "c" }] }],
    ["pod-port-zero", { containers: [c({ ports: [{ containerPort: 0 }] })] }],
    ["pod-port-high", { containers: [c({ ports: [{ containerPort: 65536 + Math.floor(rnd() * 1000) }] })] }],
    ["pod-port-negative", { containers: [c({ ports: [{ containerPort: -1 }] })] }],
    [
      "pod-port-name-invalid",
      {
        containers: [
          c({
            ports: [
              { containerPort: 80, name: pick(rnd, ["HTTP", "a--b", "-ab", "1234", "abcdefghijklmnop"]) },
            ],
          }),
        ],
      },
    ],
    [
      "pod-port-name-duplicate",
      {
        containers: [
          c({
            ports: [
              { containerPort: 80, name: "p" },
              { containerPort: 81, name: "p" },
            ],
          }),
        ],
      },
    ],
    ["pod-port-protocol", { containers: [c({ ports: [{ containerPort: 80, protocol: "ICMP" }] })] }],
    ["pod-hostport-high", { containers: [c({ ports: [{ containerPort: 80, hostPort: 70000 }] })] }],
    ["pod-env-name-empty", { containers: [c({ env: [{ name: "" }] })] }],
    ["pod-env-name-equals", { containers: [c({ env: [{ name: "a=b" }] })] }],
    ["pod-env-name-unicode", { containers: [c({ env: [{ name: "é" }] })] }],
    ["pod-resources-negative", { containers: [c({ resources: { requests: { memory: "-1" } } })] }],
    [
      "pod-resources-request-over-limit",
      { containers: [c({ resources: { requests: { cpu: "2" }, limits: { cpu: "1" } } })] },
    ],
    ["pod-resources-unknown-name", { containers: [c({ resources: { limits: { [w()]: "1" } } })] }],
    ["pod-resources-pods", { containers: [c({ resources: { limits: { pods: "1" } } })] }],
    [
      "pod-resources-extended-fraction",
      {
        containers: [
          c({
            resources: { limits: { "example.com/gpu": "500m" }, requests: { "example.com/gpu": "500m" } },
          }),
        ],
      },
    ],
    [
      "pod-resources-extended-no-limit",
      { containers: [c({ resources: { requests: { "example.com/gpu": "1" } } })] },
    ],
    [
      "pod-resources-extended-unequal",
      {
        containers: [
          c({ resources: { requests: { "example.com/gpu": "1" }, limits: { "example.com/gpu": "2" } } }),
        ],
      },
    ],
    [
      "pod-resources-hugepages-alone",
      {
        containers: [
          c({ resources: { limits: { "hugepages-2Mi": "2Mi" }, requests: { "hugepages-2Mi": "2Mi" } } }),
        ],
      },
    ],
    [
      "pod-volume-name-duplicate",
      {
        volumes: [
          { name: "v", emptyDir: {} },
          { name: "v", emptyDir: {} },
        ],
        containers: [c()],
      },
    ],
    ["pod-volume-name-invalid", { volumes: [{ name: "V_1", emptyDir: {} }], containers: [c()] }],
    ["pod-volume-no-source", { volumes: [{ name: "v" }], containers: [c()] }],
    [
      "pod-volume-two-sources",
      { volumes: [{ name: "v", emptyDir: {}, configMap: { name: "x" } }], containers: [c()] },
    ],
    [
      "pod-volume-three-sources",
      {
        volumes: [{ name: "v", hostPath: { path: "/x" }, secret: { secretName: "s" }, downwardAPI: {} }],
        containers: [c()],
      },
    ],
    ["pod-volume-secret-no-name", { volumes: [{ name: "v", secret: {} }], containers: [c()] }],
    ["pod-volume-pvc-no-claim", { volumes: [{ name: "v", persistentVolumeClaim: {} }], containers: [c()] }],
    ["pod-volume-hostpath-no-path", { volumes: [{ name: "v", hostPath: {} }], containers: [c()] }],
    ["pod-mount-unknown", { containers: [c({ volumeMounts: [{ name: w(), mountPath: "/x" }] })] }],
    [
      "pod-mount-no-path",
      { volumes: [{ name: "v", emptyDir: {} }], containers: [c({ volumeMounts: [{ name: "v" }] })] },
    ],
    [
      "pod-mount-path-twice",
      {
        volumes: [{ name: "v", emptyDir: {} }],
        containers: [
          c({
            volumeMounts: [
              { name: "v", mountPath: "/a" },
              { name: "v", mountPath: "/a" },
            ],
          }),
        ],
      },
    ],
    ["pod-restart-policy", { restartPolicy: pick(rnd, ["Sometimes", "always"]), containers: [c()] }],
    ["pod-dns-policy", { dnsPolicy: "Cluster", containers: [c()] }],
    ["pod-dns-none-no-config", { dnsPolicy: "None", containers: [c()] }],
    ["pod-pull-policy", { containers: [c({ imagePullPolicy: "Sometimes" })] }],
    ["pod-termination-message-policy", { containers: [c({ terminationMessagePolicy: "Never" })] }],
    ["pod-node-selector-invalid", { nodeSelector: { "a/b/c": "x" }, containers: [c()] }],
    ["pod-service-account-invalid", { serviceAccountName: "Bad_SA", containers: [c()] }],
    ["pod-hostname-invalid", { hostname: "a.b", containers: [c()] }],
    ["pod-deadline-zero", { activeDeadlineSeconds: 0, containers: [c()] }],
    ["pod-probe-no-handler", { containers: [c({ livenessProbe: {} })] }],
    [
      "pod-probe-two-handlers",
      { containers: [c({ readinessProbe: { exec: { command: ["a"] }, tcpSocket: { port: 80 } } })] },
    ],
    [
      "pod-probe-negative",
      { containers: [c({ livenessProbe: { exec: { command: ["a"] }, initialDelaySeconds: -1 } })] },
    ],
    [
      "pod-probe-success-threshold",
      { containers: [c({ livenessProbe: { exec: { command: ["a"] }, successThreshold: 2 } })] },
    ],
    ["pod-probe-exec-empty", { containers: [c({ startupProbe: { exec: {} } })] }],
    ["pod-probe-port-zero", { containers: [c({ livenessProbe: { tcpSocket: { port: 0 } } })] }],
    ["pod-probe-scheme", { containers: [c({ livenessProbe: { httpGet: { port: 80, scheme: "FTP" } } })] }],
    [
      "pod-init-probe",
      { initContainers: [c({ name: "i", livenessProbe: { exec: { command: ["a"] } } })], containers: [c()] },
    ],
    [
      "pod-init-restart-never",
      { initContainers: [c({ name: "i", restartPolicy: "Never" })], containers: [c()] },
    ],
    ["pod-container-restart-policy", { containers: [c({ restartPolicy: "Always" })] }],
    ...podSchedulingVariants(rnd),
    ...podSpecFieldVariants(rnd),
  ];
}
