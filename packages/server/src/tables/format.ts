/** How kube-apiserver's printers write durations, label maps and selectors into Table cells. */

// biome-ignore lint/suspicious/noExplicitAny: objects are read as plain JSON.
export type Json = any;

/** A duration the way kubectl's columns show it: "45s", "5m2s", "3h", "2d4h", "400d", "3y20d". */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 192)
    return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const years = Math.floor(hours / 24 / 365);
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) - years * 365;
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${years}y`;
}

/** Time since a timestamp, or "<unknown>" without one. */
export function since(timestamp: unknown, now: number): string {
  if (typeof timestamp !== "string" || timestamp === "") return "<unknown>";
  return humanDuration(now - Date.parse(timestamp));
}

/** "k=v,k2=v2" in key order, "<none>" when empty. */
export function formatLabels(map: Record<string, string> | undefined): string {
  const entries = Object.entries(map ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? "<none>" : entries.map(([k, v]) => `${k}=${v}`).join(",");
}

/** A LabelSelector as text ("app=web,tier in (a,b)"), "<none>" when it selects nothing. */
export function selectorString(sel: Json): string {
  if (!sel) return "<none>";
  const parts: string[] = [];
  const labels = Object.entries((sel.matchLabels ?? {}) as Record<string, string>).map(
    ([k, v]) => `${k}=${v}`,
  );
  const exprs = ((sel.matchExpressions ?? []) as { key: string; operator: string; values?: string[] }[]).map(
    (e) => {
      const values = [...(e.values ?? [])].sort().join(",");
      if (e.operator === "In") return `${e.key} in (${values})`;
      if (e.operator === "NotIn") return `${e.key} notin (${values})`;
      if (e.operator === "Exists") return e.key;
      return `!${e.key}`;
    },
  );
  parts.push(...labels, ...exprs);
  parts.sort();
  return parts.length === 0 ? "<none>" : parts.join(",");
}

/** Container names and images of a pod template, comma-joined. */
export function containersAndImages(template: Json): [string, string] {
  const cs = (template?.spec?.containers ?? []) as { name: string; image: string }[];
  return [cs.map((c) => c.name).join(","), cs.map((c) => c.image).join(",")];
}
