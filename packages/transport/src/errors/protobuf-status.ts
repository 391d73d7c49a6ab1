/**
 * Status bodies in protobuf: a kube-apiserver that negotiated protobuf sends its error Status (and
 * watch ERROR events) that way too. Decoded with @kubesdk/models' wire codec into the JSON form,
 * so an ApiError is built from either encoding the same way.
 */
import { decodeObject } from "@kubesdk/models";
import { isStatusBody } from "./status-schema.js";

/** The Status in an enveloped protobuf body (its fields still to be checked), or why there is none. */
export function decodeProtobufStatus(
  body: Uint8Array,
): { readonly status: object } | { readonly problem: string } {
  let decoded: unknown;
  try {
    decoded = decodeObject(body);
  } catch (err) {
    return { problem: err instanceof Error ? err.message : String(err) };
  }
  if (!isStatusBody(decoded)) {
    const kind = (decoded as { kind?: unknown }).kind;
    return { problem: `the body is a ${JSON.stringify(kind)}, not a Status` };
  }
  return { status: decoded };
}
