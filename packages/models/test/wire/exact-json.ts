/**
 * JSON.parse that keeps integers beyond ±(2^53 − 1) exact, as bigints: Go writes int64 values
 * across their whole range, which the plain parse would round.
 */
const tokens = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const marker = "\u0000int64:";

export function parseExactJson(text: string): unknown {
  const marked = text.replace(tokens, (token) =>
    token.startsWith('"') || !/^-?\d+$/.test(token) || Number.isSafeInteger(Number(token))
      ? token
      : `"\\u0000int64:${token}"`,
  );
  return JSON.parse(marked, (_key, value) =>
    typeof value === "string" && value.startsWith(marker) ? BigInt(value.slice(marker.length)) : value,
  );
}

/** Whether `value` holds a bigint anywhere. */
export function holdsBigint(value: unknown): boolean {
  if (typeof value === "bigint") return true;
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(holdsBigint);
}

/** `value` with every bigint as its decimal string. */
export function bigintsAsStrings(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(bigintsAsStrings);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bigintsAsStrings(v)]));
}
