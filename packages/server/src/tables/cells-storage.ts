/** Table cells of volumes, storage and CSI kinds, quotas and pod templates. */
import type { Row } from "./cells-core.js";
import { containersAndImages, formatLabels, type Json, since } from "./format.js";

type Cells = (o: Json, now: number) => Row;

const age = (o: Json, now: number) => since(o.metadata.creationTimestamp, now);

const ACCESS_MODES: readonly [string, string][] = [
  ["ReadWriteOnce", "RWO"],
  ["ReadOnlyMany", "ROX"],
  ["ReadWriteMany", "RWX"],
  ["ReadWriteOncePod", "RWOP"],
];

/** Access modes abbreviated, in a fixed order whatever order they were written in. */
function accessModes(modes: readonly string[] | undefined): string {
  const set = new Set(modes ?? []);
  return ACCESS_MODES.filter(([mode]) => set.has(mode))
    .map(([, short]) => short)
    .join(",");
}

/** The storage class: spec.storageClassName, else the old beta annotation. */
function storageClass(o: Json): string {
  const annotated = o.metadata.annotations?.["volume.beta.kubernetes.io/storage-class"];
  if (annotated !== undefined) return annotated;
  return o.spec?.storageClassName ?? "";
}

/** Phase, or Terminating once deletion has started. */
const phase = (o: Json): string => (o.metadata.deletionTimestamp ? "Terminating" : (o.status?.phase ?? ""));

const persistentVolumes: Cells = (pv, now) => {
  const claim = pv.spec?.claimRef;
  return {
    cells: [
      pv.metadata.name,
      pv.spec?.capacity?.storage ?? "0",
      accessModes(pv.spec?.accessModes),
      pv.spec?.persistentVolumeReclaimPolicy ?? "",
      phase(pv),
      claim ? `${claim.namespace ?? ""}/${claim.name ?? ""}` : "",
      storageClass(pv),
      pv.spec?.volumeAttributesClassName ?? "<unset>",
      pv.status?.reason ?? "",
      age(pv, now),
      pv.spec?.volumeMode ?? "<unset>",
    ],
  };
};

const persistentVolumeClaims: Cells = (pvc, now) => {
  const bound = Boolean(pvc.spec?.volumeName);
  return {
    cells: [
      pvc.metadata.name,
      phase(pvc),
      pvc.spec?.volumeName ?? "",
      bound ? (pvc.status?.capacity?.storage ?? "0") : "",
      bound ? accessModes(pvc.status?.accessModes) : "",
      storageClass(pvc),
      pvc.spec?.volumeAttributesClassName ?? "<unset>",
      age(pvc, now),
      pvc.spec?.volumeMode ?? "<unset>",
    ],
  };
};

const csiDrivers: Cells = (d, now) => {
  const spec = d.spec ?? {};
  const tokens = spec.tokenRequests as Json[] | undefined | null;
  const modes = ((spec.volumeLifecycleModes ?? []) as string[]).join(",");
  return {
    cells: [
      d.metadata.name,
      spec.attachRequired ?? true,
      spec.podInfoOnMount ?? false,
      spec.storageCapacity ?? false,
      tokens ? tokens.map((t) => t.audience).join(",") : "<unset>",
      spec.requiresRepublish ?? false,
      modes || "<none>",
      age(d, now),
    ],
  };
};

/** "name: used/hard" for each resource the quota tracks, requests and limits apart, in name order. */
function quotaColumns(q: Json): [string, string] {
  const hard = (q.status?.hard ?? {}) as Record<string, string>;
  const used = (q.status?.used ?? {}) as Record<string, string>;
  const requests: string[] = [];
  const limits: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const parts = name.split(".");
    const into = parts.length > 1 && parts[0] === "limits" ? limits : requests;
    into.push(`${name}: ${used[name] ?? "0"}/${hard[name]}`);
  }
  return [requests.join(", "), limits.join(", ")];
}

export const STORAGE_CELLS: Readonly<Record<string, Cells>> = {
  "/persistentvolumes": persistentVolumes,
  "/persistentvolumeclaims": persistentVolumeClaims,
  "/resourcequotas": (q, now) => ({ cells: [q.metadata.name, ...quotaColumns(q), age(q, now)] }),
  "/podtemplates": (pt) => ({
    cells: [
      pt.metadata.name,
      ...containersAndImages(pt.template),
      formatLabels(pt.template?.metadata?.labels),
    ],
  }),
  "storage.k8s.io/storageclasses": (sc, now) => ({
    cells: [
      sc.metadata.name,
      sc.provisioner ?? "",
      sc.reclaimPolicy ?? "Delete",
      sc.volumeBindingMode ?? "Immediate",
      sc.allowVolumeExpansion ?? false,
      age(sc, now),
    ],
  }),
  "storage.k8s.io/csidrivers": csiDrivers,
  "storage.k8s.io/csinodes": (n, now) => ({
    cells: [n.metadata.name, (n.spec?.drivers ?? []).length, age(n, now)],
  }),
  "storage.k8s.io/volumeattachments": (va, now) => ({
    cells: [
      va.metadata.name,
      va.spec?.attacher ?? "",
      va.spec?.source?.persistentVolumeName ?? "",
      va.spec?.nodeName ?? "",
      va.status?.attached ?? false,
      age(va, now),
    ],
  }),
  "storage.k8s.io/volumeattributesclasses": (c, now) => ({
    cells: [c.metadata.name, c.driverName ?? "", age(c, now)],
  }),
};
