import { KubesdkError } from "../errors.js";

/** Everything the protobuf wire codec rejects carries one of these codes. */
export type WireErrorCode =
  /** The bytes do not start with "k8s\0". */
  | "PROTOBUF_MAGIC"
  /** The runtime.Unknown envelope after the magic is truncated or malformed. */
  | "PROTOBUF_ENVELOPE"
  /** The apiVersion/kind has no protobuf message (custom resources, Table, unknown kinds). */
  | "PROTOBUF_UNKNOWN_KIND"
  /** An object to encode carries no apiVersion/kind and none was given. */
  | "PROTOBUF_NO_KIND"
  /** The enveloped (or embedded) message bytes do not decode as their message type. */
  | "PROTOBUF_MESSAGE"
  /** A value does not fit its field (wrong JSON type, bad timestamp, invalid base64, ...). */
  | "PROTOBUF_VALUE"
  /** A watch event frame is malformed. */
  | "PROTOBUF_WATCH_EVENT"
  /** An int64 value does not fit (encode), or is beyond ±2^53 without an exact `int64` mode (decode). */
  | "PROTOBUF_INT64"
  /** Messages (embedded objects included) are nested deeper than the codec follows. */
  | "PROTOBUF_DEPTH";

/** The protobuf wire codec could not encode or decode a value; `field` says where. */
export class WireError extends KubesdkError {
  readonly code: WireErrorCode;
  /** What was wrong, without the field path. */
  readonly reason: string;
  /** JSON path of the offending field, e.g. "spec.containers[0].ports[1].containerPort". */
  readonly field: string | undefined;

  constructor(code: WireErrorCode, reason: string, options?: { field?: string; cause?: unknown }) {
    super(options?.field ? `${options.field}: ${reason}` : reason, { cause: options?.cause });
    this.code = code;
    this.reason = reason;
    this.field = options?.field;
  }
}

/**
 * Adds `segment` (".name", "[3]", "[key]") in front of a WireError's field path while the walk
 * unwinds; other errors pass through untouched.
 */
export function within(error: unknown, segment: string): unknown {
  if (!(error instanceof WireError)) return error;
  const inner =
    error.field === undefined ? "" : error.field.startsWith("[") ? error.field : `.${error.field}`;
  const field = `${segment}${inner}`.replace(/^\./, "");
  return new WireError(error.code, error.reason, { field, cause: error.cause });
}

/** The message of whatever was thrown, for wrapping third-party errors. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
