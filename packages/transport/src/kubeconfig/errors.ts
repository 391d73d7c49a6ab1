import { KubesdkError } from "../errors/base.js";

/** Codes of {@link KubeconfigError}. */
export type KubeconfigErrorCode =
  /** No kubeconfig file exists where one was looked for. */
  | "KUBECONFIG_NOT_FOUND"
  /** A file named by the kubeconfig (or the kubeconfig itself) could not be read. */
  | "KUBECONFIG_UNREADABLE"
  /** The file is not valid YAML. */
  | "KUBECONFIG_SYNTAX"
  /** A field has the wrong type or a value the rules forbid. */
  | "KUBECONFIG_INVALID"
  /** Neither a current-context nor a context override is set. */
  | "KUBECONFIG_NO_CONTEXT"
  /** A context, cluster or user named somewhere does not exist. */
  | "KUBECONFIG_REFERENCE_NOT_FOUND"
  /** A feature this SDK deliberately does not implement (legacy auth-provider plugins). */
  | "KUBECONFIG_UNSUPPORTED";

/**
 * A kubeconfig could not be loaded or used. The message reads `<file>: <field path>: <problem>` and
 * never contains secret values (tokens, keys, passwords): only names, paths and the expected shape.
 */
export class KubeconfigError extends KubesdkError {
  readonly code: KubeconfigErrorCode;
  readonly file: string | undefined;
  /** Where in the file, e.g. `users[0].user.exec.apiVersion`. */
  readonly fieldPath: string | undefined;

  constructor(
    code: KubeconfigErrorCode,
    problem: string,
    where: { file?: string | undefined; fieldPath?: string | undefined; cause?: unknown } = {},
  ) {
    super([where.file, where.fieldPath, problem].filter((p) => p !== undefined && p !== "").join(": "), {
      cause: where.cause,
    });
    this.code = code;
    this.file = where.file;
    this.fieldPath = where.fieldPath;
  }
}
