/**
 * The scale subresource: GET/PUT/PATCH `.../<name>/scale` with autoscaling/v1
 * Scale objects for deployments, replicasets, statefulsets,
 * replicationcontrollers and custom resources declaring `subresources.scale`.
 * A write changes only the parent's replicas (spec.replicas, or the CRD's
 * specReplicasPath) and goes through the parent's update pipeline, so a
 * stale resourceVersion is a 409 Conflict on the parent.
 */
import { schemaFor } from "@kubesdk/models";
import { errors, failure, qualifiedName } from "../../api/status.js";
import { applyPatchOfType } from "../../patch/apply-patch.js";
import type { ScalePaths, ServedResource } from "../../resources/served.js";
import { type ApiResponse, type HandlerContext, type KubeObject, metadataOf } from "./context.js";
import { andThen, loadPresented } from "./converted.js";
import { type PatchRequest, updateObject, type WriteRequest } from "./write.js";

const SCALE_GVK = { group: "autoscaling", version: "v1", kind: "Scale" };
/** Built-in kinds default spec.replicas to 1 (their v1 defaulting); the reference server stores what it got. */
const DEFAULT_REPLICAS = 1;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function segments(path: string): string[] {
  return path.replace(/^\./, "").split(".");
}

function readPath(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const seg of segments(path)) cur = isObj(cur) ? cur[seg] : undefined;
  return cur;
}

/** A copy of `obj` with `path` set to `value`, copying each object on the way. */
function writePath(obj: Obj, path: string, value: unknown): Obj {
  const [head, ...rest] = segments(path);
  if (head === undefined) return obj;
  if (rest.length === 0) return { ...obj, [head]: value };
  const child = isObj(obj[head]) ? (obj[head] as Obj) : {};
  return { ...obj, [head]: writePath(child, rest.join("."), value) };
}

/** The string form of a LabelSelector (apimachinery's LabelSelectorAsSelector(...).String()). */
export function selectorString(selector: unknown): string {
  if (!isObj(selector)) return "";
  const reqs: Array<{ key: string; text: string }> = [];
  const labels = isObj(selector.matchLabels) ? selector.matchLabels : {};
  for (const [k, v] of Object.entries(labels)) reqs.push({ key: k, text: `${k}=${String(v)}` });
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  for (const e of exprs.filter(isObj)) {
    const key = String(e.key ?? "");
    const values = (Array.isArray(e.values) ? e.values.map(String) : []).sort();
    const text =
      e.operator === "In"
        ? `${key} in (${values.join(",")})`
        : e.operator === "NotIn"
          ? `${key} notin (${values.join(",")})`
          : e.operator === "DoesNotExist"
            ? `!${key}`
            : key;
    reqs.push({ key, text });
  }
  return reqs
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((r) => r.text)
    .join(",");
}

interface ScaleAccess {
  readonly specReplicas: string;
  readonly statusReplicas: string;
  /** Reads the selector string from the parent. */
  readonly selector: (obj: KubeObject) => string;
  readonly defaultReplicas: number;
}

function accessFor(r: ServedResource): ScaleAccess {
  const paths: ScalePaths | undefined = r.custom?.scale;
  if (paths) {
    const labelPath = paths.labelSelectorPath;
    return {
      specReplicas: paths.specReplicasPath,
      statusReplicas: paths.statusReplicasPath,
      selector: (o) => {
        const v = labelPath ? readPath(o, labelPath) : undefined;
        return typeof v === "string" ? v : "";
      },
      defaultReplicas: 0,
    };
  }
  const legacy = r.group === "" && r.resource === "replicationcontrollers";
  return {
    specReplicas: ".spec.replicas",
    statusReplicas: ".status.replicas",
    // ReplicationControllers select with a plain label map.
    selector: (o) => {
      const s = readPath(o, ".spec.selector");
      return legacy ? selectorString({ matchLabels: isObj(s) ? s : {} }) : selectorString(s);
    },
    defaultReplicas: DEFAULT_REPLICAS,
  };
}

function toScale(r: ServedResource, parent: KubeObject): Obj {
  const access = accessFor(r);
  const meta = metadataOf(parent);
  const spec = readPath(parent, access.specReplicas);
  const status = readPath(parent, access.statusReplicas);
  const replicas = typeof spec === "number" ? spec : access.defaultReplicas;
  const selector = access.selector(parent);
  const metadata: Obj = { name: meta.name };
  if (meta.namespace !== undefined) metadata.namespace = meta.namespace;
  for (const k of ["uid", "resourceVersion", "creationTimestamp"])
    if (meta[k] !== undefined) metadata[k] = meta[k];
  return {
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata,
    // autoscaling/v1 omits a zero spec.replicas and an empty selector.
    spec: replicas === 0 ? {} : { replicas },
    status: { replicas: typeof status === "number" ? status : 0, ...(selector ? { selector } : {}) },
  };
}

export function getScale(
  ctx: HandlerContext,
  r: ServedResource,
  namespace: string | undefined,
  name: string,
): ApiResponse | Promise<ApiResponse> {
  return andThen(loadPresented(ctx, r, namespace, name), (parent) => ({
    code: 200,
    body: toScale(r, parent),
  }));
}

export async function updateScale(
  ctx: HandlerContext,
  r: ServedResource,
  req: WriteRequest & { name: string },
): Promise<ApiResponse> {
  return writeScale(ctx, r, req, await loadPresented(ctx, r, req.namespace, req.name), req.body);
}

export async function patchScale(
  ctx: HandlerContext,
  r: ServedResource,
  req: PatchRequest,
): Promise<ApiResponse> {
  const parent = await loadPresented(ctx, r, req.namespace, req.name);
  // An apply to /scale can only set spec.replicas, which a merge does the same way.
  const patched = applyPatchOfType(toScale(r, parent), {
    patchType: req.patchType,
    patch: req.patch,
    strategic: true,
    schema: schemaFor(SCALE_GVK),
    applyAsMerge: true,
  });
  return writeScale(ctx, r, req, parent, patched);
}

/** The replicas a Scale write asks for, after upstream's checks of kind, name, replicas and uid. */
function checkScale(r: ServedResource, name: string, parent: KubeObject, scale: Obj): number {
  if (scale.kind !== undefined && scale.kind !== "Scale")
    throw errors.badRequest(
      `the kind in the data (${String(scale.kind)}) does not match the expected kind (Scale)`,
    );
  const meta = metadataOf(scale);
  const parentMeta = metadataOf(parent);
  if (meta.name !== undefined && meta.name !== name)
    throw errors.badRequest(
      `the name of the object (${String(meta.name)}) does not match the name on the URL (${name})`,
    );
  const replicas = isObj(scale.spec) ? (scale.spec.replicas ?? 0) : 0;
  if (typeof replicas !== "number" || !Number.isInteger(replicas))
    throw errors.badRequest(
      `Scale in version "v1" cannot be handled as a Scale: spec.replicas must be an integer`,
    );
  if (!r.custom && replicas < 0)
    throw errors.invalid("Scale", "autoscaling", name, [
      {
        type: "FieldValueInvalid",
        field: "spec.replicas",
        value: replicas,
        detail: "must be greater than or equal to 0",
      },
    ]);
  if (typeof meta.uid === "string" && meta.uid !== "" && meta.uid !== parentMeta.uid)
    throw failure(
      409,
      "Conflict",
      `Operation cannot be fulfilled on ${qualifiedName({ group: r.group, resource: `${r.resource}/scale` })} "${name}": Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${String(parentMeta.uid)}`,
      { name, ...(r.group ? { group: r.group } : {}), kind: `${r.resource}/scale` },
    );
  return replicas;
}

async function writeScale(
  ctx: HandlerContext,
  r: ServedResource,
  req: {
    namespace: string | undefined;
    name: string;
    query: URLSearchParams;
    userAgent?: string | undefined;
  },
  parent: KubeObject,
  scale: Obj,
): Promise<ApiResponse> {
  const replicas = checkScale(r, req.name, parent, scale);
  const meta = metadataOf(scale);
  const rv =
    typeof meta.resourceVersion === "string" && meta.resourceVersion !== ""
      ? meta.resourceVersion
      : metadataOf(parent).resourceVersion;
  const next = writePath(
    { ...parent, metadata: { ...parent.metadata, resourceVersion: rv } },
    accessFor(r).specReplicas,
    replicas,
  );
  const res = await updateObject(ctx, r, {
    namespace: req.namespace,
    name: req.name,
    subresource: "scale",
    query: req.query,
    body: next,
    ...(req.userAgent !== undefined ? { userAgent: req.userAgent } : {}),
  });
  return { ...res, body: toScale(r, res.body as KubeObject) };
}
