/** What a store recorded, for tests that compare two ways of writing the same objects. */
import type { HandlerContext } from "../../src/endpoints/handlers/context.js";

/** The store's events in order, as JSON text (field order counts), with the uids numbered by first sight. */
export function recorded(ctx: HandlerContext): string[] {
  const uids = new Map<string, string>();
  return ctx.store.eventsSince(0).map((e) => {
    const text = JSON.stringify({ type: e.type, bucket: e.bucket, key: e.key, object: e.object });
    return text.replace(/"uid":"([^"]+)"/g, (_, uid: string) => {
      if (!uids.has(uid)) uids.set(uid, `uid-${uids.size}`);
      return `"uid":"${uids.get(uid)}"`;
    });
  });
}
