/**
 * What a plugin may read besides the request: the store (namespaces, quotas, limit ranges, service
 * accounts, whose creation ServiceAccount admission may wait for) and the clock. Kept narrower than the handlers' context so that plugins do not write through the back door;
 * the one write admission makes is ResourceQuota charging `status.used`, which upstream's plugin also
 * makes as it admits (plugins/resource-quota.ts).
 */
import type { MvccStore } from "../storage/mvcc.js";

export interface AdmissionContext {
  readonly store: Pick<MvccStore, "get" | "list" | "count" | "update" | "subscribe">;
  readonly now: () => number;
}
