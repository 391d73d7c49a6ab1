/** Kubernetes timestamp formats. */

/** metav1.MicroTime: RFC 3339 with microseconds ("2026-01-02T03:04:05.678000Z"). */
export function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** metav1.Time: RFC 3339 to the second ("2026-01-02T03:04:05Z"). */
export function time(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
