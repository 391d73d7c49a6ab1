/**
 * The root of every error kubesdk throws. `code` is a stable UPPER_SNAKE_CASE string to switch on
 * (never prefixed with `ERR_`); the message is for humans and may change between releases.
 * `name` is the concrete class name, so logs read `ApiError: …`, `ClientError: …`.
 */
export abstract class KubesdkError extends Error {
  abstract readonly code: string;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * A {@link KubesdkError} whose `code` is one of a package's own code union `C`: a package declares
 * its union and `class XError extends CodedError<XErrorCode> {}`.
 */
export abstract class CodedError<C extends string> extends KubesdkError {
  readonly code: C;

  constructor(code: C, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** Everything @kubesdk/models rejects carries one of these codes. */
export type ModelsErrorCode =
  | "UNKNOWN_RESOURCE"
  | "INVALID_RESOURCE_INFO"
  | "UNKNOWN_SCHEMA_TYPE"
  | "UNKNOWN_PROTO_TYPE"
  | "NOT_A_SCHEMA_NODE";

/** A registry, schema or protobuf-descriptor lookup failed. */
export class ModelsError extends CodedError<ModelsErrorCode> {}
