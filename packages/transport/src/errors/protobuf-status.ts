/**
 * Status bodies in protobuf: a kube-apiserver that negotiated protobuf sends its error Status (and
 * watch ERROR events) that way too. Decoded by the protobuf codec the caller configured (the
 * transport holds none of its own, so a JSON-only program does not carry one) into the JSON form,
 * so an ApiError is built from either encoding the same way.
 */
import { isStatusBody } from "./status-schema.js";

/** Decodes an enveloped protobuf body into its JSON form (e.g. `protobufCodec.decode`). */
export type ProtobufBodyDecoder = (body: Uint8Array) => unknown;

/** The Status in an enveloped protobuf body (its fields still to be checked), or why there is none. */
export function decodeProtobufStatus(
  body: Uint8Array,
  decode: ProtobufBodyDecoder | undefined,
): { readonly status: object } | { readonly problem: string } {
  if (decode === undefined) return { problem: "no protobuf codec is configured" };
  let decoded: unknown;
  try {
    decoded = decode(body);
  } catch (err) {
    return { problem: err instanceof Error ? err.message : String(err) };
  }
  if (!isStatusBody(decoded)) {
    const kind = (decoded as { kind?: unknown } | null)?.kind;
    return { problem: `the body is a ${JSON.stringify(kind)}, not a Status` };
  }
  return { status: decoded };
}
