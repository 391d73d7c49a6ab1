/** What went wrong while building up, talking to or tearing down a real apiserver/etcd pair. */
export type RealApiserverErrorCode =
  | "BINARIES_MISSING"
  | "INVALID_OPTION"
  | "OPENSSL_FAILED"
  | "PROCESS_EXITED"
  | "NOT_READY"
  | "COMPACTION_FAILED";

export class RealApiserverError extends Error {
  override readonly name = "RealApiserverError";
  readonly code: RealApiserverErrorCode;

  constructor(code: RealApiserverErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
