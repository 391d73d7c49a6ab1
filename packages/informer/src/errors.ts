import { KubesdkError } from "@kubesdk/models";

/** The informer was stopped: new handlers are refused and pending waits reject with this. */
export class InformerStoppedError extends KubesdkError {
  readonly code = "INFORMER_STOPPED" as const;

  constructor(what = "the informer was stopped") {
    super(what);
  }
}

/** `waitForSync` did not see the informer synced within the caller's timeout. */
export class SyncTimeoutError extends KubesdkError {
  readonly code = "SYNC_TIMEOUT" as const;
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`the informer did not sync within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's signal aborted a `waitForSync`. `cause` is the signal's reason. */
export class SyncAbortedError extends KubesdkError {
  readonly code = "SYNC_ABORTED" as const;

  constructor(reason: unknown) {
    super("waiting for the informer to sync was aborted", { cause: reason });
  }
}

/** An option has a value the informer cannot work with; `option` names it. */
export class InvalidInformerOptionError extends KubesdkError {
  readonly code = "INVALID_OPTION" as const;
  readonly option: string;

  constructor(option: string, problem: string) {
    super(`informer option ${option}: ${problem}`);
    this.option = option;
  }
}

/** Codes of {@link UnexpectedObjectError}. */
export type UnexpectedObjectCode = "OBJECT_WRONG_KIND" | "OBJECT_INVALID";

/**
 * The server sent an object the informer cannot cache: one of another kind than the resource
 * serves, or one without a name. It is reported and skipped; the rest of the stream goes on.
 */
export class UnexpectedObjectError extends KubesdkError {
  readonly code: UnexpectedObjectCode;
  readonly object: unknown;

  constructor(code: UnexpectedObjectCode, message: string, object: unknown) {
    super(message);
    this.code = code;
    this.object = object;
  }
}

/** A list response that is not a list (no `items` array or no `metadata.resourceVersion`). */
export class InvalidListResponseError extends KubesdkError {
  readonly code = "LIST_RESPONSE_INVALID" as const;
}

/** The user's transform threw; the object is skipped. `cause` is what it threw. */
export class TransformError extends KubesdkError {
  readonly code = "TRANSFORM_FAILED" as const;
  readonly object: unknown;

  constructor(object: unknown, cause: unknown) {
    super(`the transform threw for ${describeObject(object)}`, { cause });
    this.object = object;
  }
}

/** An index function threw; the object is skipped (the store stays unchanged for it). */
export class IndexFunctionError extends KubesdkError {
  readonly code = "INDEX_FUNCTION_FAILED" as const;
  readonly index: string;

  constructor(index: string, object: unknown, cause: unknown) {
    super(`index function "${index}" threw for ${describeObject(object)}`, { cause });
    this.index = index;
  }
}

/** A handler threw (or its promise rejected). The informer and the other handlers go on. */
export class HandlerError extends KubesdkError {
  readonly code = "HANDLER_FAILED" as const;
  readonly handler: string;
  readonly notification: "add" | "update" | "delete";

  constructor(handler: string, notification: "add" | "update" | "delete", cause: unknown) {
    super(`handler "${handler}" threw in ${notification}`, { cause });
    this.handler = handler;
    this.notification = notification;
  }
}

/** "ConfigMap ns/name" style description for error messages. */
export function describeObject(obj: unknown): string {
  const o = obj as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } } | null;
  const kind = typeof o?.kind === "string" ? o.kind : "object";
  const ns = typeof o?.metadata?.namespace === "string" ? `${o.metadata.namespace}/` : "";
  const name = typeof o?.metadata?.name === "string" ? o.metadata.name : "<no name>";
  return `${kind} ${ns}${name}`;
}
