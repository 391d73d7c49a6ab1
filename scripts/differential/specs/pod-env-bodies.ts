/**
 * Pod spec variants for env and envFrom, DNS config, host aliases, lifecycle hooks, OS rules and
 * resource claims (podSpecVariants adds them; volumes: pod-volume-bodies.ts). Seeded: names,
 * values and which bad form a variant sends vary from run to run.
 */
import { podVolumeVariants } from "./pod-volume-bodies.js";
import { type Body, int, pick, type Random, word } from "./types.js";

const c = (extra: Body = {}): Body => ({ name: "c", image: "busybox", ...extra });
const one = (container: Body, spec: Body = {}): Body => ({ ...spec, containers: [c(container)] });
const env = (valueFrom: Body, extra: Body = {}): Body => ({ env: [{ name: "V", valueFrom, ...extra }] });

function envVariants(rnd: Random): [string, Body][] {
  const w = () => word(rnd);
  return [
    [
      "pod-valid-env-sources",
      one({
        env: [
          {
            name: "A",
            valueFrom: {
              fieldRef: { fieldPath: pick(rnd, ["metadata.name", "status.podIPs", "spec.host"]) },
            },
          },
          {
            name: "B",
            valueFrom: {
              resourceFieldRef: { resource: "limits.memory", divisor: pick(rnd, ["1Mi", "1", "1G"]) },
            },
          },
          { name: "C", valueFrom: { configMapKeyRef: { name: w(), key: `${w()}.k` } } },
          { name: "D", valueFrom: { secretKeyRef: { name: w(), key: w() } } },
          { name: "E", valueFrom: { fieldRef: { fieldPath: `metadata.labels['${w()}']` } } },
        ],
        envFrom: [{ prefix: `${w()}_`, configMapRef: { name: w() } }, { secretRef: { name: `${w()}-` } }],
      }),
    ],
    ["pod-env-value-from-empty", one(env({}))],
    ["pod-env-value-and-value-from", one(env({ fieldRef: { fieldPath: "metadata.name" } }, { value: w() }))],
    [
      "pod-env-two-sources",
      one(env({ fieldRef: { fieldPath: "metadata.name" }, secretKeyRef: { name: w(), key: "k" } })),
    ],
    [
      "pod-env-field-path",
      one(
        env({
          fieldRef: {
            fieldPath: pick(rnd, [
              "spec.foo",
              "status.phase",
              "metadata.labels",
              "metadata.name['x']",
              "metadata.labels['a b']",
              "['x']",
            ]),
          },
        }),
      ),
    ],
    [
      "pod-env-field-api-version",
      one(env({ fieldRef: { apiVersion: pick(rnd, ["v2", "apps/v1"]), fieldPath: "metadata.name" } })),
    ],
    [
      "pod-env-resource",
      one(env({ resourceFieldRef: { resource: pick(rnd, ["limits.gpu", "cpu", "requests.storage"]) } })),
    ],
    [
      "pod-env-divisor",
      one(
        env({
          resourceFieldRef: pick(rnd, [
            { resource: "limits.cpu", divisor: "2" },
            { resource: "requests.memory", divisor: "1m" },
            { resource: "limits.ephemeral-storage", divisor: "3" },
            { resource: "limits.hugepages-2Mi", divisor: "5" },
          ]),
        }),
      ),
    ],
    [
      "pod-env-key-selector",
      one(
        env({
          [pick(rnd, ["configMapKeyRef", "secretKeyRef"])]: {
            name: pick(rnd, ["", "Bad_N"]),
            key: pick(rnd, ["", "a b", ".."]),
          },
        }),
      ),
    ],
    [
      "pod-env-file-key",
      {
        volumes: [
          { name: "e", emptyDir: {} },
          { name: "s", secret: { secretName: w() } },
        ],
        containers: [
          c(
            env({
              fileKeyRef: {
                volumeName: pick(rnd, ["s", "zz", ""]),
                path: pick(rnd, ["a.env", "../x", ""]),
                key: pick(rnd, ["K", "a=b", ""]),
              },
            }),
          ),
        ],
      },
    ],
    ["pod-env-from-prefix", one({ envFrom: [{ prefix: "a=b", configMapRef: { name: w() } }] })],
    ["pod-env-from-no-source", one({ envFrom: [{ prefix: "P" }] })],
    [
      "pod-env-from-two-sources",
      one({ envFrom: [{ configMapRef: { name: w() }, secretRef: { name: w() } }] }),
    ],
    [
      "pod-env-from-name",
      one({
        envFrom: [{ [pick(rnd, ["configMapRef", "secretRef"])]: { name: pick(rnd, ["", "Bad", "a_b"]) } }],
      }),
    ],
  ];
}

function podLevelVariants(rnd: Random): [string, Body][] {
  const w = () => word(rnd);
  const ip = () => `10.${int(rnd, 0, 255)}.${int(rnd, 0, 255)}.${int(rnd, 1, 254)}`;
  return [
    [
      "pod-valid-dns-config",
      one(
        {},
        {
          dnsPolicy: "None",
          dnsConfig: {
            nameservers: [ip()],
            searches: [`${w()}.svc.`, `_${w()}.example.com`],
            options: [{ name: "ndots", value: "2" }],
          },
        },
      ),
    ],
    ["pod-dns-none-no-nameserver", one({}, { dnsPolicy: "None", dnsConfig: { searches: [w()] } })],
    [
      "pod-dns-nameservers",
      one(
        {},
        {
          dnsConfig: {
            nameservers: pick(rnd, [[ip(), ip(), ip(), ip()], ["x"], ["1.2.3.04"], ["::ffff:1.2.3.4"]]),
          },
        },
      ),
    ],
    [
      "pod-dns-searches",
      one(
        {},
        {
          dnsConfig: {
            searches: pick(rnd, [
              ["Bad_X"],
              ["a..b"],
              [""],
              Array.from({ length: 33 }, (_, i) => `s${i}`),
              ["x".repeat(254)],
            ]),
          },
        },
      ),
    ],
    ["pod-dns-option-name", one({}, { dnsConfig: { options: [{ value: w() }] } })],
    ["pod-valid-host-aliases", one({}, { hostAliases: [{ ip: ip(), hostnames: [`${w()}.local`, w()] }] })],
    [
      "pod-host-aliases",
      one(
        {},
        {
          hostAliases: [
            { ip: pick(rnd, ["", "x", "01.2.3.4"]), hostnames: [pick(rnd, ["Bad_Host", "a..b", w()])] },
          ],
        },
      ),
    ],
    ["pod-valid-os", one({}, { os: { name: pick(rnd, ["linux", "windows"]) } })],
    ["pod-os-name", one({}, { os: { name: pick(rnd, ["", "mac", "Linux"]) } })],
    [
      "pod-os-linux-windows-options",
      one({ securityContext: { windowsOptions: { runAsUserName: w() } } }, { os: { name: "linux" } }),
    ],
    [
      "pod-os-windows-linux-fields",
      one(
        {
          securityContext: {
            [pick(rnd, ["privileged", "readOnlyRootFilesystem", "allowPrivilegeEscalation"])]: false,
            runAsUser: int(rnd, 1, 999),
          },
        },
        {
          os: { name: "windows" },
          securityContext: { [pick(rnd, ["fsGroup", "runAsGroup", "runAsUser"])]: int(rnd, 1, 999) },
          hostPID: rnd() < 0.5,
        },
      ),
    ],
    [
      "pod-valid-resource-claims",
      one(
        { resources: { claims: [{ name: "a" }, { name: "b", request: w() }] } },
        {
          resourceClaims: [
            { name: "a", resourceClaimName: w() },
            { name: "b", resourceClaimTemplateName: w() },
          ],
        },
      ),
    ],
    [
      "pod-resource-claims",
      one(
        {},
        {
          resourceClaims: pick(rnd, [
            [{ name: "" }],
            [{ name: "Bad_N", resourceClaimName: "x", resourceClaimTemplateName: "y" }],
            [{ name: "a", resourceClaimName: "Bad_X" }],
            [
              { name: "a", resourceClaimName: "x" },
              { name: "a", resourceClaimName: "y" },
            ],
          ]),
        },
      ),
    ],
    [
      "pod-container-resize-policy",
      one(
        {
          resizePolicy: pick(rnd, [
            [{ resourceName: "gpu", restartPolicy: "NotRequired" }],
            [{ resourceName: "cpu", restartPolicy: "Sometimes" }],
            [{ resourceName: "memory" }],
            [
              { resourceName: "cpu", restartPolicy: "NotRequired" },
              { resourceName: "cpu", restartPolicy: "RestartContainer" },
            ],
          ]),
        },
        { restartPolicy: pick(rnd, ["Always", "Never"]) },
      ),
    ],
    [
      "pod-container-claims",
      one(
        {
          resources: {
            claims: pick(rnd, [
              [{ name: "" }],
              [{ name: w() }],
              [{ name: "a" }, { name: "a" }],
              [{ name: "a" }, { name: "a", request: "r" }],
              [{ name: "a", request: "Bad_R" }],
            ]),
          },
        },
        { resourceClaims: [{ name: "a", resourceClaimName: "x" }] },
      ),
    ],
  ];
}

function hookVariants(rnd: Random): [string, Body][] {
  return [
    [
      "pod-valid-hooks",
      one({
        lifecycle: {
          postStart: { httpGet: { port: int(rnd, 1, 65535) } },
          preStop: { sleep: { seconds: int(rnd, 0, 30) } },
        },
      }),
    ],
    [
      "pod-hook-no-handler",
      one({ lifecycle: { [pick(rnd, ["postStart", "preStop"])]: pick(rnd, [{}, { grpc: { port: 80 } }]) } }),
    ],
    [
      "pod-hook-two-handlers",
      one({ lifecycle: { preStop: { exec: { command: ["a"] }, tcpSocket: { port: 80 } } } }),
    ],
    ["pod-hook-sleep", one({ lifecycle: { preStop: { sleep: { seconds: pick(rnd, [-1, 31, 100]) } } } })],
    [
      "pod-hook-http",
      one({
        lifecycle: {
          postStart: {
            httpGet: {
              port: pick(rnd, [0, "Bad_Name"]),
              scheme: pick(rnd, ["HTTP", "FTP"]),
              httpHeaders: [{ name: pick(rnd, ["a b", "", "X-Ok"]), value: "v" }],
            },
          },
        },
      }),
    ],
    ["pod-probe-sleep", one({ readinessProbe: { sleep: { seconds: 1 } } })],
  ];
}

/** The variants of this file, valid ones first within each part. */
export function podSpecFieldVariants(rnd: Random): [string, Body][] {
  return [...envVariants(rnd), ...podLevelVariants(rnd), ...hookVariants(rnd), ...podVolumeVariants(rnd)];
}
