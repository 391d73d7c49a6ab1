/**
 * Per-kind behaviour upstream strategies add on top of the generic store:
 * defaults set at create, and what a fresh status looks like. Keyed by
 * `group/resource`; a kind without an entry gets the generic behaviour.
 */
import { randomUUID } from "node:crypto";
import type { UserInfo } from "../http/auth.js";
import type { HandlerContext, KubeObject } from "./context.js";
import { allocateServiceFields } from "./service-allocation.js";

export interface KindHooks {
  /** Mutates a new object before it is stored (after generic metadata). */
  readonly prepareCreate?: (obj: KubeObject, ctx: HandlerContext, user: UserInfo | undefined) => void;
  /** prepareCreate allocates from what is stored: the create commits in the same turn, never paused. */
  readonly allocates?: boolean;
  /** Mutates a new object after it passed validation (upstream's Canonicalize). */
  readonly canonicalize?: (obj: KubeObject) => void;
}

type Labels = Record<string, string>;

/**
 * A Job without manualSelector selects its own pods by its uid: the template gets the uid and name
 * labels (legacy and prefixed) and the selector matches the uid. A Job without labels of its own
 * shares the template's (upstream's defaulting makes both the same map); one whose template had none
 * gets the generated ones after validation (as kube-apiserver 1.37 answers).
 */
function generateJobSelector(obj: KubeObject): void {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  if (spec.manualSelector === true) return;
  const uid = String(obj.metadata.uid);
  const name = String(obj.metadata.name);
  const template = (spec.template ?? {}) as { metadata?: { labels?: Labels } };
  const own = obj.metadata.labels as Labels | undefined;
  const shared =
    (own === undefined || Object.keys(own).length === 0) && template.metadata?.labels !== undefined;
  const labels: Labels = {
    ...template.metadata?.labels,
    "batch.kubernetes.io/controller-uid": uid,
    "batch.kubernetes.io/job-name": name,
    "controller-uid": uid,
    "job-name": name,
  };
  template.metadata = { ...template.metadata, labels };
  spec.template = template;
  spec.selector = { matchLabels: { "batch.kubernetes.io/controller-uid": uid } };
  if (shared) obj.metadata.labels = { ...labels };
}

function labelWithName(obj: KubeObject): void {
  const name = String(obj.metadata.name);
  obj.metadata.labels = { ...(obj.metadata.labels as object), "kubernetes.io/metadata.name": name };
}

const hooks: Record<string, KindHooks> = {
  "/namespaces": {
    prepareCreate(obj) {
      // The apiserver labels every namespace with its own name: defaulting does it when the name is
      // known (so the label is validated with it), canonicalize when the name was generated.
      if (!obj.metadata.generateName) labelWithName(obj);
      const spec = (obj.spec ?? {}) as Record<string, unknown>;
      if (!Array.isArray(spec.finalizers)) spec.finalizers = ["kubernetes"];
      obj.spec = spec;
      obj.status = { phase: "Active" };
    },
    canonicalize: labelWithName,
  },
  "batch/jobs": {
    prepareCreate: generateJobSelector,
    canonicalize(obj) {
      const own = obj.metadata.labels as Labels | undefined;
      const template = (obj.spec as { template?: { metadata?: { labels?: Labels } } } | undefined)?.template;
      if ((own === undefined || Object.keys(own).length === 0) && template?.metadata?.labels)
        obj.metadata.labels = { ...template.metadata.labels };
    },
  },
  // Upstream's LimitRange strategy names an unnamed LimitRange with a random UUID.
  "/limitranges": {
    prepareCreate(obj) {
      if (!obj.metadata.name) obj.metadata.name = randomUUID();
    },
  },
  "/services": { prepareCreate: allocateServices, allocates: true },
  "/pods": {
    prepareCreate(obj) {
      obj.status = { phase: "Pending", qosClass: "BestEffort" };
    },
  },
  // New volumes and claims start Pending until something binds them.
  "/persistentvolumes": { prepareCreate: pendingPhase },
  "/persistentvolumeclaims": { prepareCreate: pendingPhase },
  "certificates.k8s.io/certificatesigningrequests": { prepareCreate: recordRequester },
};

/**
 * A CertificateSigningRequest names who asked for it: the requester's name, uid, groups and extra
 * replace whatever the client sent, and a new request has no status.
 */
function recordRequester(obj: KubeObject, _ctx: HandlerContext, user: UserInfo | undefined): void {
  const spec = { ...(obj.spec as Record<string, unknown> | undefined) };
  delete spec.username;
  delete spec.uid;
  delete spec.groups;
  delete spec.extra;
  if (user?.name) spec.username = user.name;
  if (user?.uid) spec.uid = user.uid;
  if (user && user.groups.length > 0) spec.groups = [...user.groups];
  if (user?.extra && Object.keys(user.extra).length > 0) spec.extra = user.extra;
  obj.spec = spec;
  delete obj.status;
}

function pendingPhase(obj: KubeObject): void {
  obj.status = { phase: "Pending" };
}

function allocateServices(obj: KubeObject, ctx: HandlerContext): void {
  allocateServiceFields(ctx, obj);
}

export function hooksFor(group: string, resource: string): KindHooks {
  return hooks[`${group}/${resource}`] ?? {};
}
