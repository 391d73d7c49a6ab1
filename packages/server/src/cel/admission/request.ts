/**
 * `request` and `namespaceObject` of the admission environment: the AdmissionRequest fields a
 * policy reads (kind, resource, subResource, their request* twins, name, namespace, operation,
 * userInfo, dryRun, options) and the parts of the request's Namespace upstream exposes (no
 * managedFields or ownerReferences), as typed objects so that a misspelt field fails to compile.
 */
import type { ObjectSpec } from "./object-types.js";

const TIMESTAMP = "google.protobuf.Timestamp";
const STRINGS = "list<string>";

const GVK: ObjectSpec = {
  name: "kubernetes.GroupVersionKind",
  fields: { group: "string", version: "string", kind: "string" },
};
const GVR: ObjectSpec = {
  name: "kubernetes.GroupVersionResource",
  fields: { group: "string", version: "string", resource: "string" },
};
const USER_INFO: ObjectSpec = {
  name: "kubernetes.UserInfo",
  fields: { username: "string", uid: "string", groups: STRINGS, extra: `map<string, ${STRINGS}>` },
};

export const REQUEST_TYPE: ObjectSpec = {
  name: "kubernetes.AdmissionRequest",
  fields: {
    kind: GVK,
    resource: GVR,
    subResource: "string",
    requestKind: GVK,
    requestResource: GVR,
    requestSubResource: "string",
    name: "string",
    namespace: "string",
    operation: "string",
    userInfo: USER_INFO,
    dryRun: "bool",
    options: "dyn",
  },
};

const NAMESPACE_CONDITION: ObjectSpec = {
  name: "kubernetes.NamespaceCondition",
  fields: {
    status: "string",
    type: "string",
    lastTransitionTime: TIMESTAMP,
    message: "string",
    reason: "string",
  },
};

export const NAMESPACE_TYPE: ObjectSpec = {
  name: "kubernetes.Namespace",
  fields: {
    metadata: {
      name: "kubernetes.NamespaceMetadata",
      fields: {
        name: "string",
        generateName: "string",
        namespace: "string",
        labels: "map<string, string>",
        annotations: "map<string, string>",
        UID: "string",
        creationTimestamp: TIMESTAMP,
        deletionGracePeriodSeconds: "int",
        deletionTimestamp: TIMESTAMP,
        generation: "int",
        resourceVersion: "string",
        finalizers: STRINGS,
      },
    },
    spec: { name: "kubernetes.NamespaceSpec", fields: { finalizers: STRINGS } },
    status: {
      name: "kubernetes.NamespaceStatus",
      fields: { conditions: { listOf: NAMESPACE_CONDITION }, phase: "string" },
    },
  },
};

/** What the evaluator needs to know of a request (plain data, filled in by the admission layer). */
export interface AdmissionRequestInput {
  readonly kind: { group: string; version: string; kind: string };
  readonly resource: { group: string; version: string; resource: string };
  /** The request's own kind and resource when `kind`/`resource` name an equivalent version. */
  readonly requestKind?: { group: string; version: string; kind: string };
  readonly requestResource?: { group: string; version: string; resource: string };
  readonly subResource: string;
  readonly name: string;
  readonly namespace: string;
  readonly operation: "CREATE" | "UPDATE" | "DELETE" | "CONNECT";
  readonly userInfo: {
    username: string;
    uid?: string;
    groups: readonly string[];
    extra?: Readonly<Record<string, readonly string[]>>;
  };
  readonly dryRun: boolean;
}

const OPTIONS_KIND: Record<AdmissionRequestInput["operation"], string | undefined> = {
  CREATE: "CreateOptions",
  UPDATE: "UpdateOptions",
  DELETE: "DeleteOptions",
  CONNECT: undefined,
};

/** The request as JSON, shaped like AdmissionRequest (request* fields: the matched ones unless given). */
export function requestJson(r: AdmissionRequestInput): Record<string, unknown> {
  const optionsKind = OPTIONS_KIND[r.operation];
  return {
    kind: r.kind,
    resource: r.resource,
    subResource: r.subResource,
    requestKind: r.requestKind ?? r.kind,
    requestResource: r.requestResource ?? r.resource,
    requestSubResource: r.subResource,
    name: r.name,
    namespace: r.namespace,
    operation: r.operation,
    userInfo: {
      username: r.userInfo.username,
      uid: r.userInfo.uid ?? "",
      groups: r.userInfo.groups,
      extra: r.userInfo.extra ?? {},
    },
    dryRun: r.dryRun,
    options: optionsKind ? { kind: optionsKind, apiVersion: "meta.k8s.io/v1" } : null,
  };
}

/** The namespace as upstream exposes it: metadata without managedFields or ownerReferences. */
export function namespaceJson(ns: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (!ns) return null;
  const meta = (ns.metadata ?? {}) as Record<string, unknown>;
  const { managedFields: _m, ownerReferences: _o, uid, ...rest } = meta;
  return {
    metadata: { ...rest, ...(uid ? { UID: uid } : {}) },
    spec: ns.spec ?? {},
    status: ns.status ?? {},
  };
}
