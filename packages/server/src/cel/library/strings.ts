/**
 * The CEL strings extension functions (version 2, as the apiserver registers
 * it) that the evaluator does not have built in: charAt, replace, format,
 * strings.quote. (indexOf,
 * lastIndexOf, lowerAscii, upperAscii, split, substring, trim and join are
 * built into the evaluator.) Indexes count code points, as in cel-go.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { CelRuntimeError } from "./values.js";

function charAt(s: string, i: bigint): string {
  const cps = [...s];
  if (i < 0n || i > BigInt(cps.length)) throw new CelRuntimeError(`index out of range: ${i}`);
  return cps[Number(i)] ?? "";
}

function replace(s: string, from: string, to: string, n: bigint): string {
  if (n < 0n) return s.replaceAll(from, to);
  let out = s;
  let start = 0;
  for (let done = 0n; done < n; done++) {
    const at = out.indexOf(from, start);
    if (at < 0) break;
    out = out.slice(0, at) + to + out.slice(at + from.length);
    start = at + to.length + (from === "" ? 1 : 0);
  }
  return out;
}

/** `%s` of a value, as cel-go's string formatting renders it. */
function asString(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === null) return "null";
  if (Array.isArray(v)) return `[${v.map(asString).join(", ")}]`;
  if (v instanceof Date) return v.toISOString().replace(".000Z", "Z");
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${asString(k)}: ${asString(x)}`).join(", ")}}`;
  if (typeof v === "object")
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}: ${asString(x)}`)
      .join(", ")}}`;
  return String(v);
}

function formatOne(verb: string, precision: string | undefined, v: unknown): string {
  switch (verb) {
    case "s":
      return asString(v);
    case "d":
      if (typeof v !== "bigint")
        throw new CelRuntimeError("error during formatting: decimal clause can only be used on integers");
      return v.toString();
    case "f":
      return Number(v).toFixed(precision === undefined ? 6 : Number(precision));
    case "e":
      return Number(v)
        .toExponential(precision === undefined ? 6 : Number(precision))
        .replace(/e([+-])(\d)$/, "e$10$2");
    case "x":
    case "X": {
      const hex =
        typeof v === "string" ? Buffer.from(v).toString("hex") : (v as bigint | number).toString(16);
      return verb === "X" ? hex.toUpperCase() : hex;
    }
    case "o":
      return (v as bigint).toString(8);
    case "b":
      return typeof v === "boolean" ? String(v) : (v as bigint).toString(2);
    default:
      throw new CelRuntimeError(
        `could not parse formatting clause: unrecognized formatting clause "${verb}"`,
      );
  }
}

function format(s: string, args: unknown[]): string {
  let i = 0;
  return s.replace(/%(?:\.(\d+))?([a-zA-Z%])/g, (_, precision: string | undefined, verb: string) => {
    if (verb === "%") return "%";
    if (i >= args.length) throw new CelRuntimeError(`index ${i} out of range`);
    return formatOne(verb, precision, args[i++]);
  });
}

const QUOTED: Record<string, string> = {
  "\x07": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
  "\\": "\\\\",
  '"': '\\"',
};

/** strings.quote: double quotes around the text, control characters and quotes escaped. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the bell character is one cel-go escapes.
const quote = (s: string) => `"${s.replace(/[\x07\b\f\n\r\t\v\\"]/g, (c) => QUOTED[c] ?? c)}"`;

/** The `strings` namespace value: CEL calls `strings.quote(s)` as a method of it. */
class StringsNamespace {}

export function registerStrings(env: Environment): void {
  env.registerFunction("string.charAt(int): string", charAt);
  env.registerFunction("string.replace(string, string): string", (s: string, a: string, b: string) =>
    replace(s, a, b, -1n),
  );
  env.registerFunction("string.replace(string, string, int): string", replace);
  env.registerFunction("string.format(list<dyn>): string", format);
  env.registerType("k8s.strings", StringsNamespace);
  env.registerConstant("strings", "k8s.strings", new StringsNamespace());
  env.registerFunction("k8s.strings.quote(string): string", (_: unknown, s: string) => quote(s));
}
