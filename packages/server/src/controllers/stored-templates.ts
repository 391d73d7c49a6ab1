/**
 * Objects committed in the form the write path would store them, without the write path: the
 * kube-apiserver's own objects of a start (system-objects.ts) and what the ServiceAccount
 * controller and root CA publisher create in every namespace. A start makes these writes before
 * it answers, and through the write path they were most of its CPU (docs/performance-history.md,
 * session 19). Each is a template filled with a fresh uid and the clock;
 * packages/server/test/system-objects.test.ts and controller-objects.test.ts check that every one
 * is what the write path stores for the same request, field order included.
 */
import { randomUUID } from "node:crypto";
import { nowTimestamp } from "../api/names.js";
import { DEFAULT_SETTINGS, type HandlerContext } from "../endpoints/handlers/context.js";
import type { StoredObject } from "../storage/mvcc.js";

export type Fields = Record<string, unknown>;

/** What a system object is committed as: its resource, where, and its stored form. */
export interface SystemObject {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly namespace: string | undefined;
  readonly name: string;
  /** The stored object, given the server metadata a create adds (uid and creation time). */
  readonly build: (uid: string, time: string) => StoredObject;
}

/** A system object of a v1 resource (all of them are). */
export function systemObject(
  group: string,
  plural: string,
  namespace: string | undefined,
  name: string,
  build: SystemObject["build"],
): SystemObject {
  return { group, version: "v1", plural, namespace, name, build };
}

/** One managedFields entry of an Update, in the order the write path records its members. */
export function updateEntry(manager: string, apiVersion: string, time: string, fieldsV1: Fields) {
  return {
    manager,
    operation: "Update" as const,
    apiVersion,
    time,
    fieldsType: "FieldsV1" as const,
    fieldsV1,
  };
}

/** `{".": {}, "f:a": {}, …}`: the fields of a map the writer set, as managedFields lists them. */
export function mapFields(keys: readonly string[]): Fields {
  return Object.fromEntries([[".", {}], ...keys.map((k) => [`f:${k}`, {}])]);
}

/**
 * The ServiceAccount `default` kube-controller-manager's ServiceAccount controller creates in each
 * namespace. Its request sets no field, so the write path records no managedFields entry.
 */
export function defaultServiceAccount(namespace: string): SystemObject {
  return systemObject("", "serviceaccounts", namespace, "default", (uid, time) => ({
    metadata: { name: "default", namespace, uid, creationTimestamp: time },
    apiVersion: "v1",
    kind: "ServiceAccount",
  }));
}

/** A ConfigMap kube-controller-manager creates with one annotation and its data (the root CA publisher's). */
export function controllerConfigMap(
  namespace: string,
  name: string,
  annotation: readonly [string, string],
  data: Readonly<Record<string, string>>,
): SystemObject {
  const [key, value] = annotation;
  const fields = {
    "f:data": mapFields(Object.keys(data)),
    "f:metadata": { "f:annotations": mapFields([key]) },
  };
  return systemObject("", "configmaps", namespace, name, (uid, time) => ({
    metadata: {
      name,
      annotations: { [key]: value },
      namespace,
      uid,
      creationTimestamp: time,
      managedFields: [updateEntry("kube-controller-manager", "v1", time, fields)],
    },
    data: { ...data },
    apiVersion: "v1",
    kind: "ConfigMap",
  }));
}

/** The buckets of what configures admission beyond the built-in plugins (webhooks, policies, quotas). */
const ADMISSION_CONFIGURATION = [
  "admissionregistration.k8s.io/mutatingwebhookconfigurations",
  "admissionregistration.k8s.io/validatingwebhookconfigurations",
  "admissionregistration.k8s.io/mutatingadmissionpolicies",
  "admissionregistration.k8s.io/mutatingadmissionpolicybindings",
  "admissionregistration.k8s.io/validatingadmissionpolicies",
  "admissionregistration.k8s.io/validatingadmissionpolicybindings",
  "/resourcequotas",
];

/**
 * Whether a controller's create of a ServiceAccount or ConfigMap would be stored as its template:
 * the server's own admission chain with nothing stored that could change, refuse or charge the
 * write (webhooks, admission policies, quotas) and the default object size limit. Otherwise the
 * controller writes through the write path, so that the user sees what their configuration does.
 */
export function admissionIsPlain(ctx: HandlerContext): boolean {
  if (ctx.admission !== undefined) return false;
  if (ctx.settings.maxObjectBytes < DEFAULT_SETTINGS.maxObjectBytes) return false;
  return ADMISSION_CONFIGURATION.every((bucket) => ctx.store.count(bucket) === 0);
}

/**
 * Builds the object with a new uid and the current time and commits it; nothing when the resource
 * is not served, as before.
 */
export function commitSystemObject(ctx: HandlerContext, object: SystemObject): StoredObject | undefined {
  const r = ctx.resources.find(object.group, object.version, object.plural);
  if (!r) return undefined;
  const key = r.namespaced ? `${object.namespace}/${object.name}` : object.name;
  return ctx.store.create(r.bucket, key, object.build(randomUUID(), nowTimestamp(ctx.now())));
}
