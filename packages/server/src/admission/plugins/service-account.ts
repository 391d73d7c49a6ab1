/**
 * ServiceAccount (upstream plugin/pkg/admission/serviceaccount): a new pod runs as a ServiceAccount
 * that exists. The mutating phase names `default` when the pod names none, copies the account's
 * imagePullSecrets to a pod without any, and mounts the projected token volume
 * (service-account-volume.ts) unless `automountServiceAccountToken` (the pod's, else the
 * account's) is false. Both phases refuse (403) a pod whose account is missing, a mirror pod that
 * names an account, a Secret or a token projection, and Secret references an account with
 * `kubernetes.io/enforce-mountable-secrets` does not list; an `ephemeralcontainers` update is held
 * to the same list. Mirror pods are left unchanged, as the kubelet would delete a changed one.
 *
 * Upstream looks the `default` account up again for up to about two seconds before refusing, as
 * the ServiceAccount controller may be about to create it for a new namespace; this plugin waits
 * for the account's creation event as long, so only then is the phase asynchronous.
 */
import { failure } from "../../api/status.js";
import type { StoredObject } from "../../storage/mvcc.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { type AdmissionPlugin, forbidden, handlesOnly } from "../plugin.js";
import {
  enforcesMountableSecrets,
  namesAnySecret,
  projectsServiceAccountToken,
  unlistedEphemeralSecretReference,
  unlistedSecretReference,
} from "./service-account-secrets.js";
import { mountTokenVolume } from "./service-account-volume.js";

type Json = Record<string, unknown>;

const ACCOUNTS = "/serviceaccounts";
const DEFAULT_ACCOUNT = "default";
const MIRROR_ANNOTATION = "kubernetes.io/config.mirror";
/** Upstream: ten lookups 100–200 ms apart for the default account. */
const DEFAULT_ACCOUNT_WAIT_MS = 1500;

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const recordAt = (v: unknown, key: string): Json => (isRecord(v) && isRecord(v[key]) ? v[key] : {});

function podOf(a: AdmissionAttributes): Json | undefined {
  if (a.resource.group !== "" || a.resource.resource !== "pods" || !isRecord(a.object)) return undefined;
  return a.subresource === "" || a.subresource === "ephemeralcontainers" ? a.object : undefined;
}

const isMirror = (pod: Json) => recordAt(pod.metadata, "annotations")[MIRROR_ANNOTATION] !== undefined;

/** The account, waiting a while for `default` to be created; undefined when it never is. */
function lookUp(
  ctx: AdmissionContext,
  namespace: string,
  name: string,
): Json | Promise<Json | undefined> | undefined {
  const key = `${namespace}/${name}`;
  const found = ctx.store.get(ACCOUNTS, key);
  if (found || name !== DEFAULT_ACCOUNT) return found;
  return new Promise((resolve) => {
    const done = (account: StoredObject | undefined) => {
      clearTimeout(timer);
      stop();
      resolve(account);
    };
    const stop = ctx.store.subscribe((e) => {
      if (e.bucket === ACCOUNTS && e.key === key && e.type !== "DELETED") done(e.object);
    });
    const timer = setTimeout(() => done(ctx.store.get(ACCOUNTS, key)), DEFAULT_ACCOUNT_WAIT_MS);
  });
}

/** Runs `then` on the account, or refuses the pod when there is none. */
function withAccount(
  a: AdmissionAttributes,
  ctx: AdmissionContext,
  name: string,
  then: (account: Json) => void,
): void | Promise<void> {
  const refuse = () =>
    forbidden(
      a,
      `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`,
    );
  const account = lookUp(ctx, a.namespace, name);
  if (!(account instanceof Promise)) {
    if (!account) throw refuse();
    return then(account);
  }
  return account.then((found) => {
    if (!found) throw refuse();
    then(found);
  });
}

/** Whether NamespaceLifecycle (validating here, first upstream) is going to refuse the create. */
function namespaceRefuses(a: AdmissionAttributes, ctx: AdmissionContext): boolean {
  const ns = ctx.store.get("/namespaces", a.namespace);
  return !ns || ns.metadata.deletionTimestamp !== undefined || recordAt(ns, "status").phase === "Terminating";
}

function shouldAutomount(spec: Json, account: Json): boolean {
  if (typeof spec.automountServiceAccountToken === "boolean") return spec.automountServiceAccountToken;
  if (typeof account.automountServiceAccountToken === "boolean") return account.automountServiceAccountToken;
  return true;
}

function admitPod(a: AdmissionAttributes, ctx: AdmissionContext, pod: Json): void | Promise<void> {
  const spec = recordAt(pod, "spec");
  pod.spec = spec;
  if (typeof spec.serviceAccountName !== "string" || spec.serviceAccountName === "")
    spec.serviceAccountName = DEFAULT_ACCOUNT;
  return withAccount(a, ctx, String(spec.serviceAccountName), (account) => {
    if (shouldAutomount(spec, account)) mountTokenVolume(spec);
    const pullSecrets = Array.isArray(account.imagePullSecrets) ? account.imagePullSecrets : [];
    const own = Array.isArray(spec.imagePullSecrets) ? spec.imagePullSecrets : [];
    if (own.length === 0 && pullSecrets.length > 0)
      spec.imagePullSecrets = pullSecrets.filter(isRecord).map((s) => ({ name: s.name }));
    checkAccount(a, spec, account);
  });
}

function checkAccount(a: AdmissionAttributes, spec: Json, account: Json): void {
  if (!enforcesMountableSecrets(account)) return;
  const problem = unlistedSecretReference(spec, account);
  if (problem) throw forbidden(a, problem);
}

function checkMirrorPod(a: AdmissionAttributes, spec: Json): void {
  if (typeof spec.serviceAccountName === "string" && spec.serviceAccountName !== "")
    throw forbidden(a, "a mirror pod may not reference service accounts");
  if (namesAnySecret(spec)) throw forbidden(a, "a mirror pod may not reference secrets");
  if (projectsServiceAccountToken(spec))
    throw forbidden(a, "a mirror pod may not use ServiceAccountToken volume projections");
}

function validatePod(a: AdmissionAttributes, ctx: AdmissionContext, pod: Json): void | Promise<void> {
  const spec = recordAt(pod, "spec");
  if (isMirror(pod)) return checkMirrorPod(a, spec);
  const name = typeof spec.serviceAccountName === "string" ? spec.serviceAccountName : "";
  if (name === "")
    throw forbidden(
      a,
      `no service account specified for pod ${a.namespace}/${String(recordAt(pod, "metadata").name ?? "")}`,
    );
  return withAccount(a, ctx, name, (account) => checkAccount(a, spec, account));
}

/** An ephemeral container may name only the Secrets the account lists (upstream: a plain error, so 500). */
function validateEphemeral(a: AdmissionAttributes, ctx: AdmissionContext, pod: Json): void | Promise<void> {
  const spec = recordAt(pod, "spec");
  const name = typeof spec.serviceAccountName === "string" ? spec.serviceAccountName : "";
  if (name === "")
    throw forbidden(
      a,
      `no service account specified for pod ${a.namespace}/${String(recordAt(pod, "metadata").name ?? "")}`,
    );
  return withAccount(a, ctx, name, (account) => {
    if (!enforcesMountableSecrets(account)) return;
    const problem = unlistedEphemeralSecretReference(spec, account);
    if (problem) throw failure(500, "InternalError", `Internal error occurred: ${problem}`);
  });
}

export const serviceAccount: AdmissionPlugin = {
  name: "ServiceAccount",
  handles: handlesOnly("CREATE", "UPDATE"),
  admit(a, ctx) {
    const pod = podOf(a);
    if (!pod || a.operation !== "CREATE" || a.subresource !== "" || namespaceRefuses(a, ctx)) return;
    if (isMirror(pod)) return checkMirrorPod(a, recordAt(pod, "spec"));
    return admitPod(a, ctx, pod);
  },
  validate(a, ctx) {
    const pod = podOf(a);
    if (!pod) return;
    if (a.operation === "UPDATE" && a.subresource === "ephemeralcontainers")
      return validateEphemeral(a, ctx, pod);
    if (a.operation !== "CREATE" || a.subresource !== "") return;
    return validatePod(a, ctx, pod);
  },
};
