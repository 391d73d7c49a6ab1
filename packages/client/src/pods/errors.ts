import { CodedError } from "@kubesdk/transport";
import { ClientError } from "../errors.js";

/** Codes of {@link PodIoError}. */
export type PodIoErrorCode =
  /** The WebSocket could not be opened or broke (network, TLS, protocol negotiation). */
  | "STREAM_CONNECT_FAILED"
  /** The stream ended before the command reported how it finished. */
  | "STREAM_CLOSED"
  /** The peer sent a frame the protocol does not allow. */
  | "STREAM_PROTOCOL_ERROR"
  /** The operation did not finish within its `timeoutMs`. */
  | "STREAM_TIMEOUT"
  /** A port-forward stream reported an error on its error channel. */
  | "PORT_FORWARD_FAILED"
  /** A tar archive from or for a container could not be read or written. */
  | "COPY_FAILED"
  /** A manifest file or document cannot be loaded. */
  | "MANIFEST_INVALID"
  /** Waiting for a condition (e.g. a CRD becoming Established) gave up. */
  | "WAIT_TIMEOUT";

/** Failures of pod I/O streams that are not HTTP answers (those are `ApiError`). */
export class PodIoError extends CodedError<PodIoErrorCode> {}

/** The client's error for an option value it cannot use (the code the client uses for bad options). */
export function invalidOption(message: string): ClientError {
  return new ClientError("INVALID_OPTION", message);
}
