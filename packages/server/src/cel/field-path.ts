/**
 * A rule's `fieldPath` (`.spec.foo`, `['a.b']`): checked against the schema and
 * turned into the field path errors are reported at, as apimachinery prints it.
 */
import { additionalPropertiesOf, type JsonSchema, propertiesOf } from "../crd/json-schema.js";

const QUOTED_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "'": "'",
  "\\": "\\",
};

function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path.charAt(i);
    if (c === "." || c === "[" || c === "]") {
      out.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== "\\")) j++;
      out.push(path.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < path.length && !".[]".includes(path.charAt(j))) j++;
      out.push(path.slice(i, j));
      i = j;
    }
  }
  return out;
}

function step(schema: JsonSchema, name: string, out: string[]): JsonSchema {
  const props = propertiesOf(schema);
  if (Object.keys(props).length > 0) {
    const child = props[name];
    if (!child) throw new Error("does not refer to a valid field");
    out.push(out.length === 0 ? name : `.${name}`);
    return child;
  }
  const additional = additionalPropertiesOf(schema);
  if (!additional) throw new Error("does not refer to a valid field");
  out.push(`[${name}]`);
  return additional;
}

/** The printed path of a valid fieldPath; throws with upstream's reason when it is not valid. */
export function normalizeFieldPath(path: string, schema: JsonSchema): string {
  const toks = tokens(path);
  const out: string[] = [];
  let cur = schema;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as string;
    if (t === ".") {
      const name = toks[++i];
      if (name === undefined) throw new Error("unexpected end of JSON path");
      cur = step(cur, name, out);
    } else if (t === "[") {
      const quoted = toks[++i];
      if (quoted === undefined) throw new Error("unexpected end of JSON path");
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'"))
        throw new Error(`expected single quoted string but got ${quoted}`);
      const name = quoted.slice(1, -1).replace(/\\(.)/g, (m, d: string) => {
        const r = QUOTED_ESCAPES[d];
        if (r === undefined) throw new Error(`invalid string literal: invalid escape char ${m}`);
        return r;
      });
      cur = step(cur, name, out);
      if (toks[++i] !== "]") throw new Error(`expected ] but got ${toks[i] ?? ""}`);
    } else {
      throw new Error(`expected [ or . but got: ${t}`);
    }
  }
  return out.join("");
}
