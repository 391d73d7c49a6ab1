/**
 * Decoded JSON printed as Go's fmt prints the interface{} values apimachinery decodes it into
 * (`%v`): maps as `map[k:v ...]` with sorted keys, slices as `[a b]`, null as `<nil>`, integers
 * as int64 and other numbers as float64. Strategic-merge-patch errors quote values this way.
 */
type Obj = Record<string, unknown>;

/** Go's %v of a float64: shortest form, exponent below 1e-4 and from 1e21. */
function goFloat(n: number): string {
  if (n === 0) return "0";
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 21) {
    const [mantissa, e] = n.toExponential().split("e") as [string, string];
    const sign = e.startsWith("-") ? "-" : "+";
    const digits = e.replace(/^[-+]/, "").padStart(2, "0");
    return `${mantissa}e${sign}${digits}`;
  }
  return String(n);
}

export const isGoInt = (n: number): boolean => Number.isInteger(n) && Math.abs(n) < 2 ** 63;

export function goValue(v: unknown): string {
  if (v === null || v === undefined) return "<nil>";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return String(v);
  if (typeof v === "number") return isGoInt(v) ? String(v) : goFloat(v);
  if (Array.isArray(v)) return `[${v.map(goValue).join(" ")}]`;
  const o = v as Obj;
  return `map[${Object.keys(o)
    .sort()
    .map((k) => `${k}:${goValue(o[k])}`)
    .join(" ")}]`;
}

/** Go's Printf `%s` of a non-string value: `%!s(int64=5)`. */
export function goString(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number") return `%!s(${isGoInt(v) ? "int64" : "float64"}=${goValue(v)})`;
  if (typeof v === "boolean") return `%!s(bool=${v})`;
  if (v === null) return "%!s(<nil>)";
  return goValue(v);
}

/** The Go type name of a decoded JSON value, as `%T` prints it. */
export function goTypeName(v: unknown): string {
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return isGoInt(v) ? "int64" : "float64";
  if (Array.isArray(v)) return "[]interface {}";
  if (v === null) return "<nil>";
  return "map[string]interface {}";
}
