/**
 * Pod spec variants for volume sources, volume mounts and volume devices (podSpecVariants adds
 * them). Seeded: names, values and which bad form a variant sends vary from run to run.
 */
import { type Body, pick, type Random, word } from "./types.js";

const c = (extra: Body = {}): Body => ({ name: "c", image: "busybox", ...extra });
const vol = (source: Body, container: Body = {}): Body => ({
  volumes: [{ name: "v", ...source }],
  containers: [c(container)],
});

function volumeVariants(rnd: Random): [string, Body][] {
  const w = () => word(rnd);
  return [
    [
      "pod-valid-volume-sources",
      {
        volumes: [
          {
            name: "a",
            secret: { secretName: w(), defaultMode: 0o644, items: [{ key: "k", path: `${w()}/f` }] },
          },
          {
            name: "b",
            projected: {
              sources: [
                { configMap: { name: w() } },
                { downwardAPI: { items: [{ path: "l", fieldRef: { fieldPath: "metadata.labels" } }] } },
              ],
            },
          },
          { name: "d", nfs: { server: w(), path: `/${w()}` } },
        ],
        containers: [c()],
      },
    ],
    ["pod-volume-empty-dir-size", vol({ emptyDir: { sizeLimit: "-1Gi" } })],
    [
      "pod-volume-host-path",
      vol({ hostPath: { path: pick(rnd, ["/a/../b", "/x"]), type: pick(rnd, ["Foo", "file", "Socket"]) } }),
    ],
    [
      "pod-volume-git-repo-dir",
      vol({ gitRepo: { repository: w(), directory: pick(rnd, ["/abs", "a/../b", ".."]) } }),
    ],
    [
      "pod-volume-items",
      vol({
        [pick(rnd, ["secret", "configMap"])]: {
          secretName: w(),
          name: w(),
          defaultMode: pick(rnd, [-1, 512, 1000]),
          items: [
            {
              key: pick(rnd, ["", "k"]),
              path: pick(rnd, ["", "/a", "..a", "a/../b", ".."]),
              mode: pick(rnd, [0o400, -1, 1000]),
            },
          ],
        },
      }),
    ],
    [
      "pod-volume-downward-api",
      vol({
        downwardAPI: {
          items: [
            pick(rnd, [
              { path: "", fieldRef: { fieldPath: "metadata.uid" } },
              { path: w(), fieldRef: { fieldPath: pick(rnd, ["status.podIP", "spec.serviceAccountName"]) } },
              { path: w(), resourceFieldRef: { resource: "requests.memory", divisor: "1Mi" } },
              {
                path: w(),
                fieldRef: { fieldPath: "metadata.namespace" },
                resourceFieldRef: { containerName: "c", resource: "requests.cpu" },
              },
              { path: `/${w()}`, fieldRef: { fieldPath: `metadata.annotations['${w()} x']` } },
            ]),
          ],
        },
      }),
    ],
    [
      "pod-volume-pod-certificate",
      vol({
        projected: {
          sources: [
            {
              podCertificate: pick(rnd, [
                {},
                { signerName: w(), keyType: "RSA2048", keyPath: "k" },
                { signerName: `${w()}.example.com/${w()}`, keyType: "ED25519", certificateChainPath: "/c" },
                { signerName: `${w()}.io/x`, keyType: "ECDSAP256", keyPath: "k", certificateChainPath: "k" },
                {
                  signerName: `${w()}.io/x`,
                  keyType: "RSA4096",
                  credentialBundlePath: "b",
                  userAnnotations: { "a b": "c" },
                },
              ]),
            },
          ],
        },
      }),
    ],
    [
      "pod-volume-trust-bundle",
      vol({
        projected: {
          sources: [
            {
              clusterTrustBundle: pick(rnd, [
                { name: "", path: "p" },
                { name: `${w()}.io:x:Bad_${w()}`, path: "p" },
                { name: w(), path: "p", labelSelector: { matchLabels: { [w()]: "v" } } },
                { signerName: pick(rnd, ["", w(), `${w()}.io/a/b`, "Example.com/S"]), path: "p" },
                { signerName: `${w()}.io/s`, path: "p", labelSelector: { matchLabels: { "a b": "c" } } },
              ]),
            },
          ],
        },
      }),
    ],
    [
      "pod-volume-projected",
      vol({
        projected: {
          sources: pick(rnd, [
            [{ secret: { items: [{ key: "k", path: "p" }] }, configMap: { name: w() } }],
            [
              { configMap: { name: w(), items: [{ key: "k", path: "p" }] } },
              { secret: { name: w(), items: [{ key: "k", path: "p" }] } },
            ],
            [
              {
                serviceAccountToken: {
                  path: pick(rnd, ["", "/t", "t"]),
                  expirationSeconds: pick(rnd, [100, 5000000000, 3600]),
                },
              },
            ],
            [{ clusterTrustBundle: { path: "q" } }],
            [{ clusterTrustBundle: { name: w(), signerName: "a/b", path: "q" } }],
          ]),
        },
      }),
    ],
    [
      "pod-volume-ephemeral",
      vol({
        ephemeral: pick(rnd, [
          {},
          { volumeClaimTemplate: { metadata: { name: w() }, spec: {} } },
          {
            volumeClaimTemplate: {
              metadata: { labels: { "a b": "c" } },
              spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
            },
          },
        ]),
      }),
    ],
    ["pod-volume-nfs", vol({ nfs: pick(rnd, [{}, { server: w(), path: "rel" }]) })],
    [
      "pod-volume-iscsi",
      vol({
        iscsi: {
          targetPortal: pick(rnd, ["", "1.2.3.4:3260"]),
          iqn: pick(rnd, ["", "foo", "iqn.bad", "eui.123", "iqn.2001-04.com.example:storage"]),
          lun: pick(rnd, [0, 300, -1]),
          chapAuthSession: rnd() < 0.5,
        },
      }),
    ],
    [
      "pod-volume-network-required",
      vol({
        [pick(rnd, [
          "glusterfs",
          "rbd",
          "cephfs",
          "azureFile",
          "vsphereVolume",
          "photonPersistentDisk",
          "portworxVolume",
          "scaleIO",
          "flexVolume",
          "gcePersistentDisk",
          "awsElasticBlockStore",
          "cinder",
        ])]: {},
      }),
    ],
    [
      "pod-volume-fc",
      vol({
        fc: pick(rnd, [
          {},
          { targetWWNs: ["a"], wwids: ["b"] },
          { targetWWNs: ["a"] },
          { targetWWNs: ["a"], lun: 256 },
        ]),
      }),
    ],
    ["pod-volume-flocker", vol({ flocker: pick(rnd, [{}, { datasetName: "a/b", datasetUUID: w() }]) })],
    [
      "pod-volume-azure-disk",
      vol({
        azureDisk: {
          diskName: w(),
          diskURI: pick(rnd, ["https://x", "/subscriptions/x"]),
          kind: pick(rnd, ["Managed", "Shared", "Foo"]),
          cachingMode: pick(rnd, ["None", "Bar"]),
        },
      }),
    ],
    [
      "pod-volume-storageos",
      vol({
        storageos: {
          volumeName: pick(rnd, ["", "Bad_V", w()]),
          volumeNamespace: pick(rnd, ["Bad_NS", w()]),
          secretRef: {},
        },
      }),
    ],
    [
      "pod-volume-quobyte",
      vol({
        quobyte: { registry: pick(rnd, ["", "nohost", "h:1,h2", "h:1"]), volume: pick(rnd, ["", w()]) },
      }),
    ],
    [
      "pod-volume-csi",
      vol({
        csi: {
          driver: pick(rnd, ["", "Bad_Driver", "x".repeat(64), "d.example.com"]),
          nodePublishSecretRef: pick(rnd, [{}, { name: "Bad_S" }, { name: w() }]),
        },
      }),
    ],
    [
      "pod-volume-flex-options",
      vol({
        flexVolume: {
          driver: w(),
          options: { [pick(rnd, ["kubernetes.io/x", "x.k8s.io/y", "example.com/z"])]: "v" },
        },
      }),
    ],
    ["pod-volume-image", vol({ image: pick(rnd, [{}, { reference: "busybox", pullPolicy: "Sometimes" }]) })],
  ];
}

function mountVariants(rnd: Random): [string, Body][] {
  const mount = (extra: Body) =>
    vol({ emptyDir: {} }, { volumeMounts: [{ name: "v", mountPath: "/m", ...extra }] });
  const claim = { persistentVolumeClaim: { claimName: word(rnd) } };
  return [
    [
      "pod-mount-sub-path",
      mount(
        pick(rnd, [
          { subPath: "/abs" },
          { subPath: "x/../y" },
          { subPath: "x", subPathExpr: "$(A)" },
          { subPathExpr: "/e/.." },
        ]),
      ),
    ],
    [
      "pod-mount-recursive-read-only",
      mount(
        pick(rnd, [
          { recursiveReadOnly: "Enabled" },
          { readOnly: true, recursiveReadOnly: "IfPossible", mountPropagation: "HostToContainer" },
          { recursiveReadOnly: "Foo" },
          { readOnly: true, recursiveReadOnly: "Enabled" },
        ]),
      ),
    ],
    ["pod-mount-propagation", mount({ mountPropagation: pick(rnd, ["Foo", "Bidirectional", "None"]) })],
    [
      "pod-valid-volume-device",
      vol(claim, { volumeDevices: [{ name: "v", devicePath: `/dev/${word(rnd)}` }] }),
    ],
    [
      "pod-volume-device-not-claim",
      vol({ emptyDir: {} }, { volumeDevices: [{ name: "v", devicePath: "/dev/x" }] }),
    ],
    [
      "pod-volume-device-fields",
      vol(claim, {
        volumeDevices: [
          pick(rnd, [{ name: "zz", devicePath: "/d" }, { name: "v" }, { name: "", devicePath: "/x/../y" }]),
        ],
      }),
    ],
    [
      "pod-volume-device-and-mount",
      vol(claim, {
        volumeMounts: [{ name: "v", mountPath: "/m" }],
        volumeDevices: [{ name: "v", devicePath: pick(rnd, ["/m", "/d"]) }],
      }),
    ],
  ];
}

/** The volume, mount and device variants, valid ones first within each part. */
export function podVolumeVariants(rnd: Random): [string, Body][] {
  return [...volumeVariants(rnd), ...mountVariants(rnd)];
}
