/**
 * Where a SchemaIndex reads its raw types: a record, or the generated JSON read one type at a time.
 *
 * Parsing the whole generated JSON (330 kB, ~870 types) was the largest part of a process's first
 * write on the reference server, which touches a handful of types (docs/performance.md). The
 * generated text (generated/schema.ts, `jsonTemplateLiteral`) holds one type per line,
 * `"name":{…},`, so a scan for line ends finds every type without parsing any, and a type is parsed
 * when first asked for. packages/models/test/schema-source.test.ts checks that this reads the same
 * types and kinds as parsing the whole text.
 */
import type { RawSchemaNode } from "./schema-data.js";

export interface RawTypes {
  get(name: string): RawSchemaNode | undefined;
  names(): readonly string[];
  /** `group/version/kind` → type name, for every kind a type carries (`gvks`). */
  kinds(): ReadonlyMap<string, string>;
}

const gvkKey = (group: string, version: string, kind: string) => `${group}/${version}/${kind}`;

function kindsOf(entries: Iterable<readonly [string, RawSchemaNode["gvks"]]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, gvks] of entries) {
    // A kind registered in many groups (DeleteOptions, WatchEvent) maps to one meta type.
    for (const [group, version, kind] of gvks ?? []) out.set(gvkKey(group, version, kind), name);
  }
  return out;
}

/** Types given as an object (custom schemas, tests). */
export function recordTypes(types: Readonly<Record<string, RawSchemaNode>>): RawTypes {
  let kinds: Map<string, string> | undefined;
  return {
    get: (name) => (Object.hasOwn(types, name) ? types[name] : undefined),
    names: () => Object.keys(types),
    kinds: () => (kinds ??= kindsOf(Object.entries(types).map(([name, raw]) => [name, raw.gvks] as const))),
  };
}

const GVKS = '"gvks":';

/** The generated JSON object, one `"name":{…}` member per line, parsed a member at a time. */
export class LineJsonTypes implements RawTypes {
  /** Type name → the member's value text, until it is parsed. */
  readonly #text = new Map<string, string>();
  readonly #parsed = new Map<string, RawSchemaNode>();
  readonly #json: string;
  #kinds: Map<string, string> | undefined;

  constructor(json: string) {
    this.#json = json;
    let start = json.indexOf("\n") + 1;
    while (start > 0 && start < json.length) {
      const lineEnd = json.indexOf("\n", start);
      const end = lineEnd < 0 ? json.length : lineEnd;
      const line = json.slice(start, json[end - 1] === "," ? end - 1 : end);
      const colon = line.indexOf('":');
      if (line.startsWith('"') && colon > 0) this.#text.set(line.slice(1, colon), line.slice(colon + 2));
      start = end + 1;
    }
  }

  get(name: string): RawSchemaNode | undefined {
    const cached = this.#parsed.get(name);
    if (cached) return cached;
    const text = this.#text.get(name);
    if (text === undefined) return undefined;
    const raw = JSON.parse(text) as RawSchemaNode;
    this.#parsed.set(name, raw);
    return raw;
  }

  names(): readonly string[] {
    return [...this.#text.keys()];
  }

  /**
   * Reads each type's `gvks` member alone, in one pass over the text: a type holds it once, at its
   * top level, as an array of string triples (which contain no "]]"), so the text from `"gvks":` to
   * the first "]]" is it, and its line names the type.
   */
  kinds(): ReadonlyMap<string, string> {
    if (this.#kinds) return this.#kinds;
    const json = this.#json;
    const members: [string, RawSchemaNode["gvks"]][] = [];
    for (let at = json.indexOf(GVKS); at >= 0; at = json.indexOf(GVKS, at + 1)) {
      const lineStart = json.lastIndexOf("\n", at) + 1;
      const name = json.slice(lineStart + 1, json.indexOf('":', lineStart));
      // Only the members the constructor found (a text on one line has none).
      if (!this.#text.has(name)) continue;
      members.push([name, JSON.parse(json.slice(at + GVKS.length, json.indexOf("]]", at) + 2))]);
    }
    this.#kinds = kindsOf(members);
    return this.#kinds;
  }
}
