/** What users register on an informer, and what is queued for them. */
import type { DeletedFinalStateUnknown } from "./tombstone.js";

export interface AddInfo {
  /** True for objects of the initial list (and for the current state given to a handler added later). */
  readonly isInInitialList: boolean;
}

/**
 * Callbacks for changes. Each may return a promise: the next notification for the same handler
 * waits for it, so every handler sees its notifications one at a time and in order.
 */
export interface EventHandlers<T> {
  add?(obj: T, info: AddInfo): void | Promise<void>;
  /** `oldObj === newObj` for a periodic resync. */
  update?(oldObj: T, newObj: T): void | Promise<void>;
  /** A tombstone when the deletion itself was missed (the object vanished during a disconnect). */
  delete?(obj: T | DeletedFinalStateUnknown<T>): void | Promise<void>;
}

export interface HandlerOptions {
  /** Used in error reports (default "handler-N"). */
  readonly name?: string;
  /** Every this many ms the handler receives update(obj, obj) for every cached object; 0 = never (default: the informer's `resyncPeriodMs`). */
  readonly resyncPeriodMs?: number;
}

/**
 * One queued notification. `synced` marks the end of a handler's initial adds. `adds` is one add per
 * object, in order, queued as one entry: a list's 50 000 adds are not 50 000 queue entries.
 */
export type Notification<T> =
  | { readonly type: "add"; readonly obj: T; readonly isInInitialList: boolean }
  | { readonly type: "adds"; readonly objs: readonly T[]; readonly isInInitialList: boolean }
  | { readonly type: "update"; readonly oldObj: T; readonly newObj: T; readonly resync?: boolean }
  | { readonly type: "delete"; readonly obj: T | DeletedFinalStateUnknown<T> }
  | { readonly type: "synced" };
