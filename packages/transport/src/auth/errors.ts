import { KubesdkError } from "../errors/base.js";

/** Codes of {@link CredentialError}. */
export type CredentialErrorCode = "TOKEN_FILE_UNREADABLE" | "TOKEN_FILE_EMPTY";

/** Credentials could not be obtained from a file (token file, service account token). Names the path only. */
export class CredentialError extends KubesdkError {
  readonly code: CredentialErrorCode;
  readonly path: string;

  constructor(code: CredentialErrorCode, path: string, problem: string, options?: ErrorOptions) {
    super(`${path}: ${problem}`, options);
    this.code = code;
    this.path = path;
  }
}

/** Codes of {@link ExecPluginError}. */
export type ExecPluginErrorCode =
  /** The executable does not exist (see `installHint`). */
  | "EXEC_PLUGIN_NOT_FOUND"
  /** It could not be started or exited unsuccessfully. */
  | "EXEC_PLUGIN_FAILED"
  /** Its output is not a valid ExecCredential. */
  | "EXEC_PLUGIN_BAD_OUTPUT"
  /** interactiveMode Always, but stdin is not a terminal. */
  | "EXEC_PLUGIN_NEEDS_TERMINAL";

/** An exec credential plugin failed. The message names the command but never its output or arguments. */
export class ExecPluginError extends KubesdkError {
  readonly code: ExecPluginErrorCode;
  readonly command: string;
  readonly installHint: string | undefined;

  constructor(
    code: ExecPluginErrorCode,
    command: string,
    problem: string,
    extra: { installHint?: string | undefined; cause?: unknown } = {},
  ) {
    super(`exec credential plugin ${JSON.stringify(command)}: ${problem}`, { cause: extra.cause });
    this.code = code;
    this.command = command;
    this.installHint = extra.installHint;
  }
}
