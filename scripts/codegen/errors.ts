/** Codes for everything that can stop code generation; each names the input that was wrong. */
export type CodegenErrorCode =
  | "ERR_RELEASE_FILE"
  | "ERR_GO_MISSING"
  | "ERR_GO_MOD_DOWNLOAD"
  | "ERR_GO_FIELD_FACTS"
  | "ERR_OPENAPI_SHAPE"
  | "ERR_API_PACKAGE"
  | "ERR_RESOURCE_PATHS"
  | "ERR_PROTO"
  | "ERR_PROTO_DECODE"
  | "ERR_PROTO_ENCODE"
  | "ERR_NAME_COLLISION";

export class CodegenError extends Error {
  readonly code: CodegenErrorCode;

  constructor(code: CodegenErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CodegenError";
    this.code = code;
  }
}
