/**
 * Which Secrets a pod names, for the ServiceAccount admission plugin: a mirror pod may name none,
 * and a pod whose account carries `kubernetes.io/enforce-mountable-secrets: "true"` may name only
 * the account's `secrets` (and only its `imagePullSecrets` as pull secrets). Messages are upstream's
 * (plugin/pkg/admission/serviceaccount).
 */

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const records = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const at = (v: unknown, key: string): Json => (isRecord(v) && isRecord(v[key]) ? v[key] : {});
const names = (v: unknown): string[] => records(v).map((r) => String(r.name ?? ""));

/** Volume sources that name a Secret by `secretRef.name` (upstream's VisitPodSecretNames). */
const SECRET_REF_SOURCES = ["cephfs", "cinder", "flexVolume", "rbd", "scaleIO", "iscsi", "storageos"];

function volumeSecretNames(volume: Json): string[] {
  const out: string[] = [];
  if (isRecord(volume.secret)) out.push(String(volume.secret.secretName ?? ""));
  if (isRecord(volume.azureFile)) out.push(String(volume.azureFile.secretName ?? ""));
  for (const source of SECRET_REF_SOURCES)
    if (isRecord(volume[source]) && isRecord(volume[source].secretRef))
      out.push(String(at(volume[source], "secretRef").name ?? ""));
  if (isRecord(volume.csi) && isRecord(volume.csi.nodePublishSecretRef))
    out.push(String(volume.csi.nodePublishSecretRef.name ?? ""));
  for (const source of records(at(volume, "projected").sources))
    if (isRecord(source.secret)) out.push(String(source.secret.name ?? ""));
  return out.filter((n) => n !== "");
}

function containerSecretNames(container: Json): string[] {
  const fromEnv = records(container.env).map((e) =>
    String(at(at(e, "valueFrom"), "secretKeyRef").name ?? ""),
  );
  const fromEnvFrom = records(container.envFrom).map((e) => String(at(e, "secretRef").name ?? ""));
  return [...fromEnv, ...fromEnvFrom].filter((n) => n !== "");
}

const CONTAINER_FIELDS = ["initContainers", "containers", "ephemeralContainers"];

/** Whether the pod spec names any Secret anywhere (pull secrets, containers, volumes). */
export function namesAnySecret(spec: Json): boolean {
  if (names(spec.imagePullSecrets).some((n) => n !== "")) return true;
  if (CONTAINER_FIELDS.some((f) => records(spec[f]).some((c) => containerSecretNames(c).length > 0)))
    return true;
  return records(spec.volumes).some((v) => volumeSecretNames(v).length > 0);
}

/** Whether the pod spec has a projected ServiceAccount token volume. */
export function projectsServiceAccountToken(spec: Json): boolean {
  return records(spec.volumes).some((v) =>
    records(at(v, "projected").sources).some((s) => isRecord(s.serviceAccountToken)),
  );
}

/** Whether the account asks for its mountable secrets to be enforced (a Go ParseBool "true"). */
export function enforcesMountableSecrets(account: Json): boolean {
  const value = at(account.metadata, "annotations")["kubernetes.io/enforce-mountable-secrets"];
  return ["1", "t", "T", "TRUE", "true", "True"].includes(String(value));
}

/** Why a container's env or envFrom names a Secret the account does not list, if one does. */
function containerProblem(label: string, c: Json, allowed: Set<string>, account: string): string | undefined {
  const tail = `is not allowed because service account ${account} does not reference that secret`;
  for (const e of records(c.env)) {
    const ref = at(at(e, "valueFrom"), "secretKeyRef");
    if (isRecord(at(e, "valueFrom").secretKeyRef) && !allowed.has(String(ref.name ?? "")))
      return `${label} ${String(c.name)} with envVar ${String(e.name)} referencing secret.secretName="${String(ref.name ?? "")}" ${tail}`;
  }
  for (const e of records(c.envFrom))
    if (isRecord(e.secretRef) && !allowed.has(String(e.secretRef.name ?? "")))
      return `${label} ${String(c.name)} with envFrom referencing secret.secretName="${String(e.secretRef.name ?? "")}" ${tail}`;
  return undefined;
}

/** The first Secret reference of a new pod its account does not allow (upstream's limitSecretReferences). */
export function unlistedSecretReference(spec: Json, account: Json): string | undefined {
  const accountName = String(at(account, "metadata").name);
  const allowed = new Set(names(account.secrets));
  for (const v of records(spec.volumes))
    if (isRecord(v.secret) && !allowed.has(String(v.secret.secretName ?? "")))
      return `volume with secret.secretName="${String(v.secret.secretName ?? "")}" is not allowed because service account ${accountName} does not reference that secret`;
  for (const [field, label] of [
    ["initContainers", "init container"],
    ["containers", "container"],
  ] as const)
    for (const c of records(spec[field])) {
      const problem = containerProblem(label, c, allowed, accountName);
      if (problem) return problem;
    }
  const pull = new Set(names(account.imagePullSecrets));
  const refs = names(spec.imagePullSecrets);
  const i = refs.findIndex((n) => !pull.has(n));
  return i < 0
    ? undefined
    : `imagePullSecrets[${i}].name="${refs[i]}" is not allowed because service account ${accountName} does not reference that imagePullSecret`;
}

/** The first Secret reference of an ephemeral container its account does not allow. */
export function unlistedEphemeralSecretReference(spec: Json, account: Json): string | undefined {
  const accountName = String(at(account, "metadata").name);
  const allowed = new Set(names(account.secrets));
  for (const c of records(spec.ephemeralContainers)) {
    const problem = containerProblem("ephemeral container", c, allowed, accountName);
    if (problem) return problem;
  }
  return undefined;
}
