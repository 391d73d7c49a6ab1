/**
 * Store: the informer's cache, keyed by `namespace/name`, with secondary indexes maintained on
 * every change, and `replace` computing the minimal difference to a new full list.
 */
import type { KubernetesObject } from "@kubesdk/models";
import { IndexFunctionError, InvalidInformerOptionError } from "./errors.js";
import type { Indexers, IndexFunc } from "./index-func.js";
import { byNamespace } from "./indexers.js";
import { objectKey, resourceVersionOf } from "./object-meta.js";
import { DeletedFinalStateUnknown } from "./tombstone.js";

/** Read access to a store: what handlers and users get. */
export interface ReadonlyStore<T> {
  readonly size: number;
  /** The object under a key (`namespace/name`, or `name` for cluster-scoped objects). */
  get(key: string): T | undefined;
  has(key: string): boolean;
  /** Every object, in no particular order. */
  list(): T[];
  keys(): string[];
  /** Objects whose index `indexName` includes `value`. Throws for an unknown index. */
  byIndex(indexName: string, value: string): T[];
  /** Keys of {@link byIndex}. */
  indexKeys(indexName: string, value: string): string[];
  /** The values index `indexName` currently holds objects under. */
  indexValues(indexName: string): string[];
  indexNames(): string[];
}

/** What a {@link Store.replace} changed. */
export interface ReplaceDiff<T> {
  readonly added: T[];
  readonly updated: { readonly oldObj: T; readonly newObj: T }[];
  /** Objects gone from the new list, with the last state the store had. */
  readonly deleted: DeletedFinalStateUnknown<T>[];
  readonly unchanged: number;
}

type Index = Map<string, Set<string>>;

/**
 * An indexed object cache. Objects are treated as immutable: callers must not modify what they put
 * in or get out (index values of the old state are recomputed from the old object on change).
 *
 * Objects are kept by namespace, then by name, rather than under a `namespace/name` string: a
 * watch event then finds its cached object without building and hashing a new key string (the
 * names a JSON or protobuf decoder returns are often internalized, with their hash already known).
 * A key is cut at its first "/" into (namespace, name), so a key still names exactly one entry, as
 * it did in one flat map, even for names that contain "/" (which the API server rejects anyway).
 */
export class Store<T extends KubernetesObject = KubernetesObject> implements ReadonlyStore<T> {
  /** By the part of the key before its first "/" ("" when it has none), then by the rest. */
  readonly #byNamespace = new Map<string, Map<string, T>>();
  #size = 0;
  readonly #indexers = new Map<string, IndexFunc<T>>();
  readonly #indexes = new Map<string, Index>();
  /** The default index (by namespace) is the only one. */
  #namespaceIndexOnly = false;
  /**
   * Namespace indexes nobody has read yet: built from the items on first read, kept up to date from
   * then on. Most informers never ask, and the initial list then skips a set insert per object.
   * Only {@link byNamespace} is deferred: it cannot throw, so building it late changes no outcome.
   */
  readonly #unbuilt = new Set<string>();

  constructor(options: { readonly indexers?: Indexers<T> } = {}) {
    if (options.indexers !== undefined) this.addIndexers(options.indexers);
  }

  get size(): number {
    return this.#size;
  }

  /** The key of an object in this store. */
  keyOf(obj: T): string {
    return objectKey(obj);
  }

  get(key: string): T | undefined {
    return this.#byNamespace.get(keyNamespace(key))?.get(keyName(key));
  }

  /** The object stored under `obj`'s key (its previous state), found without building the key. */
  stored(obj: T): T | undefined {
    const namespace = directNamespace(obj);
    if (namespace !== undefined) return this.#byNamespace.get(namespace)?.get(obj.metadata?.name as string);
    return this.get(objectKey(obj));
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  list(): T[] {
    const out: T[] = [];
    for (const bucket of this.#byNamespace.values()) for (const obj of bucket.values()) out.push(obj);
    return out;
  }

  keys(): string[] {
    const out: string[] = [];
    for (const [namespace, bucket] of this.#byNamespace)
      for (const name of bucket.keys()) out.push(joinKey(namespace, name));
    return out;
  }

  *entries(): IterableIterator<[string, T]> {
    for (const [namespace, bucket] of this.#byNamespace)
      for (const [name, obj] of bucket) yield [joinKey(namespace, name), obj];
  }

  byIndex(indexName: string, value: string): T[] {
    return this.indexKeys(indexName, value).map((k) => this.get(k) as T);
  }

  indexKeys(indexName: string, value: string): string[] {
    return [...(this.#index(indexName).get(value) ?? [])];
  }

  indexValues(indexName: string): string[] {
    return [...this.#index(indexName).keys()];
  }

  indexNames(): string[] {
    return [...this.#indexers.keys()];
  }

  /** Adds index functions; existing objects are indexed at once. A name already in use throws. */
  addIndexers(indexers: Indexers<T>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (this.#indexers.has(name))
        throw new InvalidInformerOptionError(`indexers.${name}`, "an index with this name exists already");
      if (typeof fn !== "function")
        throw new InvalidInformerOptionError(`indexers.${name}`, "must be a function");
      const index: Index = new Map();
      if (fn === byNamespace) this.#unbuilt.add(name);
      else
        for (const [key, obj] of this.entries())
          for (const v of callIndex(name, fn, obj)) addTo(index, v, key);
      this.#indexers.set(name, fn);
      this.#indexes.set(name, index);
    }
    this.#namespaceIndexOnly =
      this.#indexers.size === 1 && this.#indexers.values().next().value === byNamespace;
  }

  /**
   * Adds or replaces an object; returns the previous one. Index functions run before anything
   * changes, so one that throws ({@link IndexFunctionError}) leaves the store as it was.
   */
  upsert(obj: T): T | undefined {
    const old = this.stored(obj);
    this.put(obj, old);
    return old;
  }

  /** {@link upsert} for a caller that has just read `old = stored(obj)`: one lookup less. */
  put(obj: T, old: T | undefined): void {
    if (this.#indexers.size > this.#unbuilt.size) this.#reindex(old, obj);
    const namespace = directNamespace(obj);
    if (namespace !== undefined) this.#set(namespace, obj.metadata?.name as string, obj);
    else {
      const key = objectKey(obj);
      this.#set(keyNamespace(key), keyName(key), obj);
    }
  }

  #set(namespace: string, name: string, obj: T): void {
    let bucket = this.#byNamespace.get(namespace);
    if (bucket === undefined) {
      bucket = new Map();
      this.#byNamespace.set(namespace, bucket);
    }
    const before = bucket.size;
    bucket.set(name, obj);
    this.#size += bucket.size - before;
  }

  /**
   * Moves `key` from the index values of `old` to those of `obj`. Every new value is computed before
   * any index changes (a throwing index function changes nothing); an index whose values stay the
   * same (the common update: same namespace, same labels) is not touched.
   */
  #reindex(old: T | undefined, obj: T): void {
    // The common update (the default namespace index only, same namespace) has nothing to do.
    if (old !== undefined && this.#namespaceIndexOnly && sameNamespace(old, obj)) return;
    const key = objectKey(obj);
    const values: (readonly string[] | undefined)[] = [];
    for (const [name, fn] of this.#indexers)
      values.push(
        this.#unbuilt.has(name) || (old !== undefined && fn === byNamespace && sameNamespace(old, obj))
          ? undefined
          : callIndex(name, fn, obj),
      );
    let i = 0;
    for (const [name, fn] of this.#indexers) {
      const next = values[i++];
      if (next === undefined) continue;
      const index = this.#indexes.get(name) as Index;
      if (old !== undefined) {
        const before = oldValues(fn, old, index);
        if (sameValues(before, next)) continue;
        removeFrom(index, before, key);
      }
      for (const v of next) addTo(index, v, key);
    }
  }

  /** Removes the object under `key`; returns it, or undefined when there was none. */
  delete(key: string): T | undefined {
    const namespace = keyNamespace(key);
    const bucket = this.#byNamespace.get(namespace);
    const name = keyName(key);
    const old = bucket?.get(name);
    if (bucket === undefined || old === undefined) return undefined;
    if (this.#indexers.size > this.#unbuilt.size) this.#unindex(key, old);
    bucket.delete(name);
    if (bucket.size === 0) this.#byNamespace.delete(namespace);
    this.#size--;
    return old;
  }

  /**
   * Makes the store hold exactly `items`, changing only what differs: a new key is an add, a key
   * whose resourceVersion changed an update (the cached object is kept when it did not), and a
   * missing key a delete. A key whose uid changed was deleted and created again while nobody
   * watched: that is a delete (tombstone of the old object) and an add, never an update, so
   * handlers do not miss the end of the old object's life. An object an index function throws for is left out of the diff and the
   * store; the error is passed to `onIndexError`.
   */
  replace(items: readonly T[], onIndexError: (err: IndexFunctionError) => void = rethrow): ReplaceDiff<T> {
    const diff: ReplaceDiff<T> = { added: [], updated: [], deleted: [], unchanged: 0 };
    // What stays stored; into an empty store (the initial list) nothing can be missing.
    const kept = this.#size === 0 ? undefined : new Set<T>();
    for (const obj of items) {
      const old = this.stored(obj);
      if (old !== undefined && sameVersion(old, obj)) {
        kept?.add(old);
        (diff as { unchanged: number }).unchanged++;
        continue;
      }
      try {
        this.put(obj, old);
      } catch (err) {
        if (!(err instanceof IndexFunctionError)) throw err;
        onIndexError(err);
        if (old !== undefined) kept?.add(old);
        continue;
      }
      kept?.add(obj);
      if (old === undefined) diff.added.push(obj);
      else if (uidOf(old) !== uidOf(obj)) {
        diff.deleted.push(new DeletedFinalStateUnknown(objectKey(obj), old));
        diff.added.push(obj);
      } else diff.updated.push({ oldObj: old, newObj: obj });
    }
    if (kept === undefined) return diff;
    // Deleting the entry being visited is safe while iterating a Map.
    for (const [key, obj] of this.entries()) {
      if (kept.has(obj)) continue;
      this.delete(key);
      diff.deleted.push(new DeletedFinalStateUnknown(key, obj));
    }
    return diff;
  }

  #index(name: string): Index {
    const index = this.#indexes.get(name);
    if (index === undefined)
      throw new InvalidInformerOptionError("indexName", `no index named ${JSON.stringify(name)}`);
    if (this.#unbuilt.delete(name))
      for (const [key, obj] of this.entries()) addTo(index, byNamespace(obj)[0] as string, key);
    return index;
  }

  #unindex(key: string, obj: T): void {
    for (const [name, fn] of this.#indexers) {
      if (this.#unbuilt.has(name)) continue;
      const index = this.#indexes.get(name) as Index;
      removeFrom(index, oldValues(fn, obj, index), key);
    }
  }
}

/**
 * The namespace an object's entry is under when it can be read off the object: its namespace ("" for
 * none) when the key would be cut there, that is, with string fields and a "/" in neither the
 * namespace nor, for a cluster-scoped object, the name. Otherwise undefined, and the key is cut.
 */
function directNamespace(obj: KubernetesObject): string | undefined {
  const meta = obj.metadata;
  const namespace = meta?.namespace;
  const name = meta?.name;
  if (typeof name !== "string") return undefined;
  if (namespace === undefined || namespace === "") return name.indexOf("/") === -1 ? "" : undefined;
  return typeof namespace === "string" && namespace.indexOf("/") === -1 ? namespace : undefined;
}

/** The part of a key before its first "/" ("" when it has none): the namespace of its entry. */
function keyNamespace(key: string): string {
  const cut = key.indexOf("/");
  return cut === -1 ? "" : key.slice(0, cut);
}

/** The part of a key after its first "/" (all of it when it has none): the name of its entry. */
function keyName(key: string): string {
  const cut = key.indexOf("/");
  return cut === -1 ? key : key.slice(cut + 1);
}

/** The key of the entry at (namespace, name): the inverse of cutting a key at its first "/". */
function joinKey(namespace: string, name: string): string {
  return namespace === "" ? name : `${namespace}/${name}`;
}

function sameNamespace(a: KubernetesObject, b: KubernetesObject): boolean {
  return (a.metadata?.namespace ?? "") === (b.metadata?.namespace ?? "");
}

/** The values a stored object was indexed under. */
function oldValues<T>(fn: IndexFunc<T>, obj: T, index: Index): readonly string[] {
  try {
    return fn(obj);
  } catch {
    // The values of the stored state could be computed when it went in; scan as a fallback.
    return [...index.keys()];
  }
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function removeFrom(index: Index, values: readonly string[], key: string): void {
  for (const v of values) {
    const keys = index.get(v);
    if (keys === undefined) continue;
    keys.delete(key);
    if (keys.size === 0) index.delete(v);
  }
}

function callIndex<T>(name: string, fn: IndexFunc<T>, obj: T): readonly string[] {
  try {
    return fn(obj);
  } catch (err) {
    throw new IndexFunctionError(name, obj, err);
  }
}

function addTo(index: Index, value: string, key: string): void {
  let keys = index.get(value);
  if (keys === undefined) {
    keys = new Set();
    index.set(value, keys);
  }
  keys.add(key);
}

// Objects without a resourceVersion cannot be compared cheaply; they count as changed.
function sameVersion(a: unknown, b: unknown): boolean {
  const rv = resourceVersionOf(a);
  return rv !== undefined && rv === resourceVersionOf(b);
}

function uidOf(obj: KubernetesObject): string | undefined {
  return obj.metadata?.uid;
}

function rethrow(err: IndexFunctionError): never {
  throw err;
}
