/**
 * Replaces what legitimately differs between two servers or two runs (uids,
 * times, resourceVersions, generated names, continue tokens, addresses,
 * scratch paths) with placeholders, and drops managedFields, so a structural
 * diff shows only real differences in behaviour.
 */

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
// RFC 3339 as servers write it, and Python's isoformat ("…T…+00:00", optional fraction).
const timestamp = /\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g;
const loopbackUrl = /https:\/\/127\.0\.0\.1:\d+/g;

const placeholderKeys: Record<string, string> = {
  uid: "<uid>",
  resourceVersion: "<resourceVersion>",
  creationTimestamp: "<time>",
  deletionTimestamp: "<time>",
  continue: "<continue>",
};
const droppedKeys = new Set(["managedFields"]);

export interface NormaliseContext {
  /** Paths that embed per-run directories, replaced by `<scratch>`. */
  readonly scratchDirs: readonly string[];
}

export function normalise(value: unknown, context: NormaliseContext): unknown {
  if (typeof value === "string") return normaliseString(value, context);
  if (Array.isArray(value)) return value.map((item) => normalise(item, context));
  if (value === null || typeof value !== "object") return value;
  const input = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(input)) {
    if (droppedKeys.has(key)) continue;
    const placeholder = placeholderKeys[key];
    out[key] =
      placeholder !== undefined && typeof child === "string" && child !== ""
        ? placeholder
        : normalise(child, context);
  }
  // A name the server generated from generateName differs on every run.
  if (typeof input.generateName === "string" && typeof input.name === "string") out.name = "<generated>";
  return out;
}

function normaliseString(text: string, context: NormaliseContext): string {
  let out = text;
  for (const dir of context.scratchDirs) out = out.split(dir).join("<scratch>");
  return out.replace(uuid, "<uid>").replace(timestamp, "<time>").replace(loopbackUrl, "<server>");
}
