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

/** Keys in upstream's order; keys all of one kind (the common case) sort as plain strings, faster. */
function sortKeys(keys: string[]): string[] {
  const kind = keys[0]?.[0];
  for (const k of keys) if (k[0] !== kind) return keys.sort(compareKeys);
  return keys.sort();
}

interface Node {
  /** This node itself is in the set. */
  member: boolean;
  /** Absent on a leaf: big sets are mostly leaves, and a Map each would dominate their cost. */
  children: Map<string, Node> | undefined;
}

const newNode = (): Node => ({ member: false, children: undefined });
const NO_CHILDREN: ReadonlyMap<string, Node> = new Map();
const kids = (node: Node): ReadonlyMap<string, Node> => node.children ?? NO_CHILDREN;

function setChild(node: Node, key: string, child: Node): void {
  if (!node.children) node.children = new Map();
  node.children.set(key, child);
}

/** The child at `key`, created when missing. */
function childAt(node: Node, key: string): Node {
  let c = node.children?.get(key);
  if (!c) {
    c = newNode();
    setChild(node, key, c);
  }
  return c;
}

function hasMember(node: Node): boolean {
  if (node.member) return true;
  for (const c of kids(node).values()) if (hasMember(c)) return true;
  return false;
}

/** Whether some member of `a` is a member of `b` too, without building their intersection. */
function shareMember(a: Node, b: Node): boolean {
  if (a.member && b.member) return true;
  if (!a.children || !b.children) return false;
  for (const [k, c] of a.children) {
    const bc = b.children.get(k);
    if (bc && shareMember(c, bc)) return true;
  }
  return false;
}

/** A fresh trie with the members of `a` and `b` (either may be absent); undefined when it has none. */
function unionNodes(a: Node | undefined, b: Node | undefined): Node | undefined {
  const out = newNode();
  out.member = (a?.member ?? false) || (b?.member ?? false);
  if (a)
    for (const [k, c] of kids(a)) {
      const merged = unionNodes(c, b?.children?.get(k));
      if (merged) setChild(out, k, merged);
    }
  if (b)
    for (const [k, c] of kids(b)) {
      if (a?.children?.has(k)) continue;
      const copy = unionNodes(c, undefined);
      if (copy) setChild(out, k, copy);
    }
  return out.member || out.children ? out : undefined;
}

/** A fresh trie with the members of `a` that are (keep) or are not (!keep) members of `b`. */
function filterNodes(a: Node, b: Node | undefined, keep: boolean): Node | undefined {
  const out = newNode();
  out.member = a.member && (b?.member ?? false) === keep;
  for (const [k, c] of kids(a)) {
    const bc = b?.children?.get(k);
    if (keep && !bc) continue;
    const kept = filterNodes(c, bc, keep);
    if (kept) setChild(out, k, kept);
  }
  return out.member || out.children ? out : undefined;
}

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
        walk(child, childAt(node, k));
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
      node = childAt(node, k);
    }
    node.member = true;
  }

  insert(path: readonly PathElement[]): void {
    this.insertKeys(path.map(elementKey));
  }

  hasKeys(keys: readonly string[]): boolean {
    let node: Node | undefined = this.root;
    for (const k of keys) {
      node = node.children?.get(k);
      if (!node) return false;
    }
    return node.member;
  }

  /** Whether some member path starts with `keys` (the path itself or anything below it). */
  hasPrefix(keys: readonly string[]): boolean {
    let node: Node | undefined = this.root;
    for (const k of keys) {
      node = node.children?.get(k);
      if (!node) return false;
    }
    return node.member || kids(node).size > 0;
  }

  /** Every member path, as element keys. */
  paths(): string[][] {
    const out: string[][] = [];
    const walk = (node: Node, prefix: string[]) => {
      if (node.member && prefix.length > 0) out.push(prefix);
      for (const [k, c] of kids(node)) walk(c, [...prefix, k]);
    };
    walk(this.root, []);
    return out;
  }

  get empty(): boolean {
    for (const c of kids(this.root).values()) if (hasMember(c)) return false;
    return true;
  }

  /** Whether the two sets share a member: `!a.intersection(b).empty`, with nothing allocated. */
  intersects(other: FieldSet): boolean {
    return shareMember(this.root, other.root);
  }

  // The set operations walk both tries together (linear in their sizes) and drop branches left
  // without members, which is what rebuilding from the kept paths gives.
  union(other: FieldSet): FieldSet {
    return FieldSet.ofRoot(unionNodes(this.root, other.root));
  }

  difference(other: FieldSet): FieldSet {
    return FieldSet.ofRoot(filterNodes(this.root, other.root, false));
  }

  intersection(other: FieldSet): FieldSet {
    return FieldSet.ofRoot(filterNodes(this.root, other.root, true));
  }

  private static ofRoot(root: Node | undefined): FieldSet {
    const s = new FieldSet();
    if (root?.children) s.root.children = root.children;
    return s;
  }

  /** The fieldsV1 encoding, with upstream's child order. */
  toFieldsV1(): Record<string, unknown> {
    return encodeTree(this.root);
  }

  /**
   * `JSON.stringify(this.toFieldsV1())` without building the tree: the server finds its shared copy
   * of a fieldsV1 by this text, and most writes then need no tree of their own.
   */
  toFieldsV1Text(): string {
    return encodeText(this.root);
  }
}

/**
 * A key that a JS object would not keep as an own key in insertion order (an array index such as
 * "0", `__proto__`) or that collides with the member marker ("."): never one of fieldsV1's prefixed
 * keys, but a set built from raw keys can hold one, and the text must still be what the tree gives.
 */
function treeOrdered(k: string): boolean {
  const c = k.charCodeAt(0);
  if (c === 46 /* . */) return k === ".";
  if (c === 95 /* _ */) return k === "__proto__";
  return c >= 48 && c <= 57 && /^(0|[1-9][0-9]*)$/.test(k);
}

function encodeTree(node: Node): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const children = kids(node);
  const keys = sortKeys([...children.keys()]);
  if (node.member && keys.length > 0) out["."] = {};
  for (const k of keys) out[k] = encodeTree(children.get(k) as Node);
  return out;
}

function encodeText(node: Node): string {
  const children = node.children;
  if (children === undefined || children.size === 0) return "{}";
  const keys = sortKeys([...children.keys()]);
  let out = node.member ? '{".":{}' : "{";
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    if (treeOrdered(k)) return JSON.stringify(encodeTree(node));
    if (i > 0 || node.member) out += ",";
    out += `${JSON.stringify(k)}:${encodeText(children.get(k) as Node)}`;
  }
  return `${out}}`;
}
