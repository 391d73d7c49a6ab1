/** Everything @kubesdk/models rejects carries one of these codes. */
export type ModelsErrorCode =
  | "ERR_UNKNOWN_RESOURCE"
  | "ERR_INVALID_RESOURCE_INFO"
  | "ERR_UNKNOWN_SCHEMA_TYPE"
  | "ERR_UNKNOWN_PROTO_TYPE"
  | "ERR_NOT_A_SCHEMA_NODE";

export class ModelsError extends Error {
  readonly code: ModelsErrorCode;

  constructor(code: ModelsErrorCode, message: string) {
    super(message);
    this.name = "ModelsError";
    this.code = code;
  }
}
