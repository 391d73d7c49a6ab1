/** Spec cases for storage.k8s.io: StorageClass, CSIDriver, CSINode, VolumeAttachment. */
import { int, pick, type Random, type SpecGroup, type SpecVariant, word } from "./types.js";

const G = "storage.k8s.io";

function storageClasses(rnd: Random): SpecVariant[] {
  const w = () => word(rnd);
  const p = `${w()}.example.com/${w()}`;
  const topo = (exprs: unknown[]) => ({
    provisioner: p,
    allowedTopologies: [{ matchLabelExpressions: exprs }],
  });
  return [
    ["valid", { provisioner: p, parameters: { [w()]: w() } }],
    ["no-provisioner", {}],
    ["provisioner-upper", { provisioner: "Example.COM/Fast" }],
    ["provisioner-bad", { provisioner: `${w()} ${w()}` }],
    ["provisioner-two-slashes", { provisioner: "a/b/c" }],
    ["parameter-empty-key", { provisioner: p, parameters: { "": "x" } }],
    ["reclaim-retain", { provisioner: p, reclaimPolicy: "Retain" }],
    ["reclaim-recycle", { provisioner: p, reclaimPolicy: "Recycle" }],
    ["binding-wait", { provisioner: p, volumeBindingMode: "WaitForFirstConsumer" }],
    ["binding-bad", { provisioner: p, volumeBindingMode: pick(rnd, ["Later", "immediate"]) }],
    ["topology-valid", topo([{ key: "topology.kubernetes.io/zone", values: [w()] }])],
    ["topology-no-values", topo([{ key: "zone", values: [] }])],
    ["topology-bad-key", topo([{ key: "a b", values: ["x"] }])],
    ["topology-duplicate-values", topo([{ key: "zone", values: ["x", "x"] }])],
    [
      "topology-duplicate-keys",
      topo([
        { key: "zone", values: ["x"] },
        { key: "zone", values: ["y"] },
      ]),
    ],
    ["topology-empty-term", { provisioner: p, allowedTopologies: [{}] }],
    ["mount-options", { provisioner: p, mountOptions: ["ro"], allowVolumeExpansion: true }],
  ];
}

function csiDrivers(rnd: Random): SpecVariant[] {
  const spec = (s: Record<string, unknown>) => ({ spec: s });
  return [
    ["empty", spec({})],
    ["fs-group-file", spec({ fsGroupPolicy: "File" })],
    ["fs-group-bad", spec({ fsGroupPolicy: "Sometimes" })],
    ["modes-ephemeral", spec({ volumeLifecycleModes: ["Persistent", "Ephemeral"] })],
    ["modes-bad", spec({ volumeLifecycleModes: ["Forever"] })],
    [
      "tokens-valid",
      spec({ tokenRequests: [{ audience: word(rnd), expirationSeconds: int(rnd, 600, 86400) }] }),
    ],
    ["tokens-short", spec({ tokenRequests: [{ audience: "a", expirationSeconds: int(rnd, 1, 599) }] })],
    ["tokens-long", spec({ tokenRequests: [{ audience: "a", expirationSeconds: 2 ** 33 }] })],
    ["tokens-duplicate", spec({ tokenRequests: [{ audience: "a" }, { audience: "a" }] })],
    ["sa-token-without-requests", spec({ serviceAccountTokenInSecrets: true })],
    ["update-period-short", spec({ nodeAllocatableUpdatePeriodSeconds: int(rnd, 1, 9) })],
    ["update-period-ok", spec({ nodeAllocatableUpdatePeriodSeconds: 60 })],
    ["no-spec", {}],
  ];
}

function csiNodes(rnd: Random): SpecVariant[] {
  const w = () => word(rnd);
  const drivers = (d: unknown[]) => ({ spec: { drivers: d } });
  return [
    ["empty", drivers([])],
    [
      "valid",
      drivers([{ name: `${w()}.csi.io`, nodeID: w(), topologyKeys: ["topology.kubernetes.io/zone"] }]),
    ],
    ["driver-no-name", drivers([{ name: "", nodeID: "n" }])],
    ["driver-bad-name", drivers([{ name: "Bad_Driver", nodeID: "n" }])],
    ["driver-upper-name", drivers([{ name: "Example.COM", nodeID: "n" }])],
    ["driver-long-name", drivers([{ name: `${"a".repeat(64)}`, nodeID: "n" }])],
    ["driver-no-node-id", drivers([{ name: "d.io", nodeID: "" }])],
    ["driver-long-node-id", drivers([{ name: "d.io", nodeID: "n".repeat(257) }])],
    [
      "driver-duplicate",
      drivers([
        { name: "d.io", nodeID: "n" },
        { name: "d.io", nodeID: "m" },
      ]),
    ],
    ["driver-negative-count", drivers([{ name: "d.io", nodeID: "n", allocatable: { count: -1 } }])],
    ["driver-bad-topology", drivers([{ name: "d.io", nodeID: "n", topologyKeys: ["", "a b", "a b"] }])],
  ];
}

function volumeAttachments(rnd: Random): SpecVariant[] {
  const w = () => word(rnd);
  const spec = (s: Record<string, unknown>) => ({
    spec: { attacher: "csi.example.com", nodeName: w(), source: { persistentVolumeName: w() }, ...s },
  });
  return [
    ["valid", spec({})],
    ["no-attacher", spec({ attacher: "" })],
    ["attacher-bad", spec({ attacher: `${w()} ${w()}` })],
    ["attacher-upper", spec({ attacher: "CSI.Example.com" })],
    ["attacher-long", spec({ attacher: "a".repeat(64) })],
    ["no-source", spec({ source: {} })],
    ["source-empty-pv", spec({ source: { persistentVolumeName: "" } })],
    ["source-bad-pv", spec({ source: { persistentVolumeName: "Bad_PV" } })],
    ["node-bad", spec({ nodeName: "Bad Node" })],
    ["node-empty", spec({ nodeName: "" })],
    ["no-spec", {}],
  ];
}

function attributesClasses(rnd: Random): SpecVariant[] {
  const w = () => word(rnd);
  return [
    ["valid", { driverName: `${w()}.example.com`, parameters: { [w()]: w() } }],
    ["no-driver", { parameters: { a: "b" } }],
    ["driver-bad", { driverName: "a b", parameters: { a: "b" } }],
    ["no-parameters", { driverName: "example.com" }],
    ["parameter-empty-key", { driverName: "example.com", parameters: { "": "x" } }],
  ];
}

function capacities(rnd: Random): SpecVariant[] {
  const sc = word(rnd);
  return [
    [
      "valid",
      {
        storageClassName: sc,
        capacity: `${int(rnd, 1, 99)}Gi`,
        nodeTopology: { matchLabels: { zone: "a" } },
      },
    ],
    ["no-class", {}],
    ["class-bad", { storageClassName: "Bad_Class" }],
    ["capacity-negative", { storageClassName: sc, capacity: "-1Gi" }],
    [
      "topology-bad",
      { storageClassName: sc, nodeTopology: { matchExpressions: [{ key: "k", operator: "In" }] } },
    ],
    ["max-volume-size", { storageClassName: sc, maximumVolumeSize: "10Gi" }],
  ];
}

export const storage: SpecGroup = {
  name: "storage",
  kinds: [
    { id: `${G}/storageclasses`, variants: storageClasses },
    { id: `${G}/csidrivers`, variants: csiDrivers },
    { id: `${G}/csinodes`, variants: csiNodes },
    { id: `${G}/volumeattachments`, variants: volumeAttachments },
    { id: `${G}/volumeattributesclasses`, variants: attributesClasses },
    { id: `${G}/csistoragecapacities`, variants: capacities },
  ],
};
