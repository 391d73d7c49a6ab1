import { CodedError } from "@kubesdk/models";

/** Codes of {@link ClientError}. */
export type ClientErrorCode =
  /** A name or namespace cannot be a URL path segment (empty, ".", ".."). */
  | "INVALID_PATH_SEGMENT"
  /** A namespace was given for a cluster-scoped resource. */
  | "NAMESPACE_NOT_ALLOWED"
  /** A namespaced resource without a namespace: none given and no default namespace configured. */
  | "MISSING_NAMESPACE"
  /** The object to replace or patch has no metadata.name and no name was given. */
  | "MISSING_NAME"
  /** Option values that contradict each other or the verb (e.g. `force` on a merge patch). */
  | "INVALID_OPTION"
  /** The verb or subresource is not served for this resource (per the registry or discovery). */
  | "UNSUPPORTED_OPERATION"
  /** Strategic merge patch on a custom resource: the server only supports it for built-in kinds. */
  | "STRATEGIC_MERGE_UNSUPPORTED"
  /** apiVersion/kind or resource name unknown to the built-in registry or to discovery. */
  | "UNKNOWN_RESOURCE"
  /** Protobuf was requested for a kind that has no protobuf form (custom resources, Table). */
  | "PROTOBUF_UNSUPPORTED"
  /** A response body that does not have the shape the call promises. */
  | "UNEXPECTED_RESPONSE"
  /** A custom resource definition whose schema the API server would refuse (not structural). */
  | "INVALID_SCHEMA"
  /** An object that does not match its custom resource's schema, refused before it is sent. */
  | "INVALID_OBJECT"
  /** `waitFor` did not see the awaited state in time (a {@link WaitTimeoutError}). */
  | "WAIT_TIMEOUT";

/** Bad input or an unusable answer, detected by the client itself (API failures are transport's `ApiError`). */
export class ClientError extends CodedError<ClientErrorCode> {}
