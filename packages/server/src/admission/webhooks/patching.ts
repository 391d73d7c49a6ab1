/**
 * A mutating webhook's JSONPatch applied to the request's object, with upstream's failure classes:
 * a patch that cannot be decoded or is of another type is a failed call (the failure policy
 * decides); a patch that does not apply, or that leaves no object of the request's kind, is a 500
 * whatever the policy; any patch on a request without an object (DELETE) is a 500.
 */
import jsonpatch from "fast-json-patch";
import { errors } from "../../api/status.js";
import { MAX_JSON_PATCH_OPERATIONS } from "../../http/limits.js";
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
    throw new WebhookCallError(`received undecodable patch in webhook response: too many operations (${ops.length})`);
  return ops as jsonpatch.Operation[];
}

/** The object a patch leaves must still be an object of the request's kind. */
function checkKind(a: AdmissionAttributes, next: unknown): Json {
  if (typeof next !== "object" || next === null || Array.isArray(next))
    throw errors.internal("couldn't get version/kind; json parse error: expected an object");
  const obj = next as Json;
  const want = a.kind.group ? `${a.kind.group}/${a.kind.version}` : a.kind.version;
  if (obj.apiVersion !== want || obj.kind !== a.kind.kind)
    throw errors.internal(
      `admission webhook changed the object's type to ${String(obj.apiVersion)}, Kind=${String(obj.kind)}`,
    );
  return obj;
}

/**
 * The patched object (undefined: an empty patch); throws a WebhookCallError or a StatusError as
 * the module comment says.
 */
export function patchedObject(
  w: Webhook,
  a: AdmissionAttributes,
  patch: string,
  patchType: string | undefined,
): Json | undefined {
  const ops = decodePatch(patch);
  if (ops.length === 0) return undefined;
  if (a.object === undefined)
    throw errors.internal(
      `admission webhook ${JSON.stringify(w.name)} attempted to modify the object, which is not supported for this operation`,
    );
  if (patchType !== "JSONPatch") throw new WebhookCallError(`unsupported patch type ${JSON.stringify(patchType)}`);
  let doc: unknown = structuredClone(a.object);
  try {
    for (const op of ops) doc = jsonpatch.applyOperation(doc, op, true, true).newDocument;
  } catch (e) {
    throw errors.internal(((e as Error).message ?? String(e)).split("\n")[0] as string);
  }
  return checkKind(a, doc);
}
