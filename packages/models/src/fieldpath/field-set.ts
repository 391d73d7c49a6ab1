/**
 * FieldSet: a set of field paths, stored as a trie, with the fieldsV1
 * encoding managedFields use (docs/api-semantics.md §6): `f:<field>`, `k:<compact JSON of
 * the key fields, sorted>`, `v:<JSON value>`, `i:<index>`; every value an
 * object, leaves `{}`, and `".": {}` on a node that is itself in the set and
 * has children in it too. Server-side apply builds on the same type.
 */
export type PathElement =
  | { readonly field: string }
  | { readonly key: Readonly<Record<string, unknown>> }
  | { readonly value: unknown }
  | { readonly index: number };

const ORDER = { f: 0, k: 1, v: 2, i: 3 } as const;

function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(",")}]`;
  if (typeof v === "object" && v !== null) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson((v as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

/** The fieldsV1 key of one path element. */
export function elementKey(e: PathElement): string {
  if ("field" in e) return `f:${e.field}`;
  if ("key" in e) return `k:${sortedJson(e.key)}`;
  if ("value" in e) return `v:${sortedJson(e.value)}`;
  return `i:${e.index}`;
}

/** Upstream's human path syntax: `.spec.containers[name="nginx"].image`, `[=value]`, `[3]`. */
export function formatPath(path: readonly PathElement[]): string {
  let out = "";
  for (const e of path) {
    if ("field" in e) out += `.${e.field}`;
    else if ("key" in e)
      out += `[${Object.keys(e.key)
        .sort()
        .map((k) => `${k}=${JSON.stringify(e.key[k])}`)
        .join(",")}]`;
    else if ("value" in e) out += `[=${JSON.stringify(e.value)}]`;
    else out += `[${e.index}]`;
  }
  return out;
}

function compareKeys(a: string, b: string): number {
  const oa = ORDER[a[0] as keyof typeof ORDER] ?? 9;
  const ob = ORDER[b[0] as keyof typeof ORDER] ?? 9;
  if (oa !== ob) return oa - ob;
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Node {
  /** This node itself is in the set. */
  member: boolean;
  readonly children: Map<string, Node>;
}

const newNode = (): Node => ({ member: false, children: new Map() });

export class FieldSet {
  private readonly root: Node = newNode();

  static fromPaths(paths: Iterable<readonly string[]>): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insertKeys(p);
    return s;
  }

  /** Parses a fieldsV1 object. */
  static fromFieldsV1(v: unknown): FieldSet {
    const s = new FieldSet();
    const walk = (obj: unknown, node: Node) => {
      if (typeof obj !== "object" || obj === null) return;
      const entries = Object.entries(obj as Record<string, unknown>);
      if (entries.length === 0) node.member = true;
      for (const [k, child] of entries) {
        if (k === ".") {
          node.member = true;
          continue;
        }
        let c = node.children.get(k);
        if (!c) {
          c = newNode();
          node.children.set(k, c);
        }
        walk(child, c);
      }
    };
    walk(v ?? {}, s.root);
    s.root.member = false;
    return s;
  }

  /** Adds a path given as fieldsV1 element keys. */
  insertKeys(keys: readonly string[]): void {
    let node = this.root;
    for (const k of keys) {
      let c = node.children.get(k);
      if (!c) {
        c = newNode();
        node.children.set(k, c);
      }
      node = c;
    }
    node.member = true;
  }

  insert(path: readonly PathElement[]): void {
    this.insertKeys(path.map(elementKey));
  }

  hasKeys(keys: readonly string[]): boolean {
    let node: Node | undefined = this.root;
    for (const k of keys) {
      node = node.children.get(k);
      if (!node) return false;
    }
    return node.member;
  }

  /** Whether some member path starts with `keys` (the path itself or anything below it). */
  hasPrefix(keys: readonly string[]): boolean {
    let node: Node | undefined = this.root;
    for (const k of keys) {
      node = node.children.get(k);
      if (!node) return false;
    }
    return node.member || node.children.size > 0;
  }

  /** Every member path, as element keys. */
  paths(): string[][] {
    const out: string[][] = [];
    const walk = (node: Node, prefix: string[]) => {
      if (node.member && prefix.length > 0) out.push(prefix);
      for (const [k, c] of node.children) walk(c, [...prefix, k]);
    };
    walk(this.root, []);
    return out;
  }

  get empty(): boolean {
    return this.paths().length === 0;
  }

  union(other: FieldSet): FieldSet {
    return FieldSet.fromPaths([...this.paths(), ...other.paths()]);
  }

  difference(other: FieldSet): FieldSet {
    return FieldSet.fromPaths(this.paths().filter((p) => !other.hasKeys(p)));
  }

  intersection(other: FieldSet): FieldSet {
    return FieldSet.fromPaths(this.paths().filter((p) => other.hasKeys(p)));
  }

  /** The fieldsV1 encoding, with upstream's child order. */
  toFieldsV1(): Record<string, unknown> {
    const encode = (node: Node): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      const keys = [...node.children.keys()].sort(compareKeys);
      if (node.member && keys.length > 0) out["."] = {};
      for (const k of keys) out[k] = encode(node.children.get(k) as Node);
      return out;
    };
    return encode(this.root);
  }
}
