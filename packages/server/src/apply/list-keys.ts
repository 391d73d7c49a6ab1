/**
 * The key of a map-list item. A key field the item leaves out takes its schema default, as
 * upstream's merge does: every built-in map-list keyed by `protocol` (container, service and
 * ephemeral container ports) defaults it to TCP, so `{port: 80}` and `{port: 80, protocol: TCP}`
 * are one item.
 */
const KEY_DEFAULTS: Readonly<Record<string, unknown>> = { protocol: "TCP" };

export function listItemKey(item: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const key: Record<string, unknown> = {};
  for (const name of keys) {
    const v = item[name] ?? KEY_DEFAULTS[name];
    if (v !== undefined) key[name] = v;
  }
  return key;
}
