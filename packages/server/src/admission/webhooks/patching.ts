/**
 * A mutating webhook's JSONPatch applied to the request's object, with upstream's failure classes:
 * a patch that cannot be decoded or is of another type is a failed call (the failure policy
 * decides); a patch that does not apply, or that leaves no object of the request's kind, is a 500
 * whatever the policy, one that moves the object to another namespace a 400; any patch on a
 * request without an object (DELETE) is a 500.
 */
import { schemaFor } from "@kubesdk/models";
import type jsonpatch from "fast-json-patch";
import { errors, failure } from "../../api/status.js";
import { MAX_JSON_PATCH_OPERATIONS } from "../../http/limits.js";
import { typeMismatch } from "../../openapi/typed-check.js";
import { applyJsonPatchOperations } from "../../patch/json-patch-document.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { Webhook } from "./configurations.js";
import { WebhookCallError } from "./review.js";

type Json = Record<string, unknown>;

function decodePatch(patch: string): jsonpatch.Operation[] {
  let ops: unknown;
  try {
    ops = JSON.parse(Buffer.from(patch, "base64").toString("utf8"));
  } catch (e) {
    throw new WebhookCallError(`received undecodable patch in webhook response: ${(e as Error).message}`);
  }
  if (!Array.isArray(ops) || ops.some((op) => typeof op !== "object" || op === null || Array.isArray(op)))
    throw new WebhookCallError(
      "received undecodable patch in webhook response: json: cannot unmarshal object into Go value of type jsonpatch.Patch",
    );
  if (ops.length > MAX_JSON_PATCH_OPERATIONS)
    throw new WebhookCallError(
      `received undecodable patch in webhook response: too many operations (${ops.length})`,
    );
  return ops as jsonpatch.Operation[];
}

/**
 * The patched object must still decode as an object of the request's kind (Go's decoder message,
 * a 500 as upstream) and stay in the request's namespace (a 400, as upstream's create checks).
 */
function checkDecodes(a: AdmissionAttributes, next: unknown): Json {
  if (typeof next !== "object" || next === null || Array.isArray(next))
    throw errors.internal("couldn't get version/kind; json parse error: the patched object is not an object");
  const obj = next as Json;
  const group = a.kind.group;
  const [g, v] = String(obj.apiVersion ?? "").includes("/")
    ? String(obj.apiVersion).split("/", 2)
    : ["", String(obj.apiVersion ?? "")];
  const kind = String(obj.kind ?? "");
  const same = g === group && v === a.kind.version && kind === a.kind.kind;
  const schema = schemaFor({ group: g ?? "", version: v ?? "", kind });
  const mismatch = typeMismatch(kind, schema, obj);
  if (mismatch !== undefined) throw errors.internal(mismatch);
  if (!same)
    throw errors.internal(
      `converting ${String(obj.apiVersion)}, Kind=${kind} to ${a.kind.kind}: unknown conversion`,
    );
  const namespace = (obj.metadata as Json | undefined)?.namespace;
  if (a.namespace !== "" && namespace !== undefined && namespace !== a.namespace)
    throw failure(
      400,
      "BadRequest",
      "the namespace of the provided object does not match the namespace sent on the request",
    );
  return obj;
}

/**
 * `base` (the object the webhook was shown) patched (undefined: an empty patch); throws a WebhookCallError or a StatusError as
 * the module comment says.
 */
export function patchedObject(
  w: Webhook,
  a: AdmissionAttributes,
  base: Json | undefined,
  patch: { readonly patch: string; readonly patchType: string | undefined },
): Json | undefined {
  const ops = decodePatch(patch.patch);
  if (ops.length === 0) return undefined;
  if (base === undefined)
    throw errors.internal(
      `admission webhook ${JSON.stringify(w.name)} attempted to modify the object, which is not supported for this operation`,
    );
  if (patch.patchType !== "JSONPatch")
    throw new WebhookCallError(`unsupported patch type ${JSON.stringify(patch.patchType)}`);
  let doc: unknown;
  try {
    doc = applyJsonPatchOperations(base, ops);
  } catch (e) {
    throw errors.internal(((e as Error).message ?? String(e)).split("\n")[0] as string);
  }
  return checkDecodes(a, doc);
}
