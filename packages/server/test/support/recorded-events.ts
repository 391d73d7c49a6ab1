/** What a store recorded, for tests that compare two ways of writing the same objects. */
import type { AdmissionChain } from "../../src/admission/index.js";
import { DEFAULT_SETTINGS, type HandlerContext } from "../../src/endpoints/handlers/context.js";
import { builtinResourceTable } from "../../src/registry/index.js";
import { MvccStore } from "../../src/storage/mvcc.js";

/** A clock inside a second, so a timestamp that kept its milliseconds would differ. */
export const NOW = Date.UTC(2026, 11, 7, 3, 4, 5, 678);

/** A fresh store at a fixed clock, with the server's admission chain unless one is given. */
export function fixedClockContext(admission?: AdmissionChain): HandlerContext {
  return {
    store: new MvccStore(),
    resources: builtinResourceTable(),
    settings: DEFAULT_SETTINGS,
    now: () => NOW,
    ...(admission ? { admission } : {}),
  };
}

/** The store's events in order, as JSON text (field order counts), with the uids numbered by first sight. */
export function recorded(ctx: HandlerContext): string[] {
  const uids = new Map<string, string>();
  return ctx.store.eventsSince(0).map((e) => {
    const text = JSON.stringify({ type: e.type, bucket: e.bucket, key: e.key, object: e.object });
    // A uid also appears inside managedFields keys (an owner reference's `k:{"uid":…}`).
    return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (uid: string) => {
      if (!uids.has(uid)) uids.set(uid, `uid-${uids.size}`);
      return String(uids.get(uid));
    });
  });
}
