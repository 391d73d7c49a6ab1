/**
 * The projected token volume the ServiceAccount admission plugin gives a pod (upstream's
 * `kube-api-access-<suffix>`): a bound token, the cluster CA from the namespace's
 * `kube-root-ca.crt` ConfigMap and the namespace, mounted read-only at
 * /var/run/secrets/kubernetes.io/serviceaccount in every container and init container that has no
 * mount there yet (ephemeral containers are added later through their own subresource and get none).
 */
import { generateName } from "../../api/names.js";

type Json = Record<string, unknown>;

export const TOKEN_MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
export const TOKEN_VOLUME_PREFIX = "kube-api-access-";
/** Upstream's bound-token lifetime for this volume: an hour plus seven seconds, so it is recognisable. */
export const TOKEN_EXPIRATION_SECONDS = 3607;
export const ROOT_CA_CONFIGMAP = "kube-root-ca.crt";

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const items = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const records = (v: unknown): Json[] => items(v).filter(isRecord);

/** The volume source, with its default mode spelled out as upstream does (420 = 0644). */
export function tokenVolume(name: string): Json {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: "token" } },
        { configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: "ca.crt", path: "ca.crt" }] } },
        {
          downwardAPI: {
            items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }],
          },
        },
      ],
      defaultMode: 420,
    },
  };
}

/**
 * Mounts the token volume into the pod's containers. A volume already named `kube-api-access-*` is
 * reused (a pod created from another pod's spec keeps its volume); the volume is added only when a
 * container got the mount.
 */
export function mountTokenVolume(spec: Json): void {
  const existing = records(spec.volumes).find((v) => String(v.name).startsWith(TOKEN_VOLUME_PREFIX));
  const name = existing ? String(existing.name) : generateName(TOKEN_VOLUME_PREFIX);
  let mounted = false;
  for (const field of ["initContainers", "containers"])
    for (const container of records(spec[field])) {
      if (records(container.volumeMounts).some((m) => m.mountPath === TOKEN_MOUNT_PATH)) continue;
      const mount = { name, readOnly: true, mountPath: TOKEN_MOUNT_PATH };
      container.volumeMounts = [...items(container.volumeMounts), mount];
      mounted = true;
    }
  if (mounted && !existing) spec.volumes = [...items(spec.volumes), tokenVolume(name)];
}
