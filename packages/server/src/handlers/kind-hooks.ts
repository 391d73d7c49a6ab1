/**
 * Per-kind behaviour upstream strategies add on top of the generic store:
 * defaults set at create, and what a fresh status looks like. Keyed by
 * `group/resource`; a kind without an entry gets the generic behaviour.
 */
import type { UserInfo } from "../http/auth.js";
import type { HandlerContext, KubeObject } from "./context.js";
import { allocateServiceFields } from "./service-allocation.js";

export interface KindHooks {
  /** Mutates a new object before it is stored (after generic metadata). */
  readonly prepareCreate?: (obj: KubeObject, ctx: HandlerContext, user: UserInfo | undefined) => void;
  /** prepareCreate allocates from what is stored: the create commits in the same turn, never paused. */
  readonly allocates?: boolean;
}

type Labels = Record<string, string>;

/**
 * A Job without manualSelector selects its own pods by its uid: the template gets the uid and name
 * labels (legacy and prefixed) and the selector matches the uid. A Job without labels of its own
 * shares the template's (upstream's defaulting makes both the same map).
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

const hooks: Record<string, KindHooks> = {
  "/namespaces": {
    prepareCreate(obj) {
      // The apiserver labels every namespace with its own name.
      const name = String(obj.metadata.name);
      obj.metadata.labels = { ...(obj.metadata.labels as object), "kubernetes.io/metadata.name": name };
      const spec = (obj.spec ?? {}) as Record<string, unknown>;
      if (!Array.isArray(spec.finalizers)) spec.finalizers = ["kubernetes"];
      obj.spec = spec;
      obj.status = { phase: "Active" };
    },
  },
  "batch/jobs": { prepareCreate: generateJobSelector },
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
