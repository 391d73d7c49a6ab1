/**
 * What a plugin may read besides the request: the store (namespaces, quotas, limit ranges) and the
 * clock. Kept narrower than the handlers' context so that plugins do not write through the back door.
 */
import type { MvccStore } from "../store/mvcc.js";

export interface AdmissionContext {
  readonly store: Pick<MvccStore, "get" | "list">;
  readonly now: () => number;
}
