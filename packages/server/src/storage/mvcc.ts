import { KubesdkError } from "@kubesdk/models";
import { KeptTexts } from "./object-text.js";
import { SortedKeys } from "./sorted-keys.js";
import { type Measured, stamp, stampWithin } from "./stamp.js";

/** A stored Kubernetes object as plain JSON. The store treats it as immutable. */
export type StoredObject = {
  metadata: { resourceVersion?: string; [k: string]: unknown };
  [k: string]: unknown;
};

export type StoreEventType = "ADDED" | "MODIFIED" | "DELETED";

/** One committed write, as watchers see it. `object` is the state after (or, for DELETED, the last state). */
export interface StoreEvent {
  readonly rev: number;
  readonly type: StoreEventType;
  readonly bucket: string;
  readonly key: string;
  readonly object: StoredObject;
  readonly prev: StoredObject | null;
  readonly time: number;
}

export interface HistoryWindow {
  /** Keep at least the last N revisions readable (lists at an old rv, continue tokens, watches). */
  readonly revisions: number;
  /** Compact away revisions older than this many milliseconds (checked on writes). */
  readonly maxAgeMs: number;
}

// Five minutes: kube-apiserver compacts etcd every five minutes (--etcd-compaction-interval), so its
// continue tokens and watch positions expire after five to ten; upstream's API chunking conformance test
// waits for that.
export const DEFAULT_HISTORY: HistoryWindow = { revisions: 100_000, maxAgeMs: 5 * 60_000 };

/** How often revisions older than the history's age are compacted when fewer than a batch. */
const AGE_COMPACTION_MS = 10_000;

/** Thrown when a read asks for a revision older than the retained history. */
export class CompactedError extends KubesdkError {
  readonly code = "COMPACTED" as const;
  constructor(
    readonly requested: number,
    readonly compacted: number,
  ) {
    super(`revision ${requested} has been compacted (oldest readable: ${compacted})`);
  }
}

/** Thrown by create when the key exists and by update/delete when it does not or the expected revision differs. */
export class PreconditionError extends KubesdkError {
  constructor(
    readonly code: "EXISTS" | "MISSING" | "REVISION",
    readonly key: string,
  ) {
    super(`${code} ${key}`);
  }
}

interface Version {
  readonly rev: number;
  readonly obj: StoredObject | null;
}

interface Bucket {
  readonly keys: SortedKeys;
  readonly versions: Map<string, Version[]>;
  live: number;
}

export interface ListOptions {
  /** Only keys starting with this prefix (a namespace: `ns/`). */
  readonly prefix?: string;
  /** Read at this revision (default: current). */
  readonly atRev?: number;
  /** First key to consider (inclusive). */
  readonly startKey?: string;
  /** Maximum items to return; 0 or undefined means all. */
  readonly limit?: number;
  readonly filter?: (obj: StoredObject) => boolean;
  /** Count the matching items after the page (upstream's remainingItemCount). */
  readonly countRemaining?: boolean;
}

export interface ListResult {
  readonly items: StoredObject[];
  readonly rev: number;
  /** Key to continue from when the page was cut by `limit`. */
  readonly nextKey?: string;
  readonly remaining?: number;
  /**
   * Set when the page is the whole of a snapshot (an unfiltered list without a limit): the same
   * object for every such list of one bucket, prefix and revision while the store keeps it, so
   * readers can keep what they derive from an unchanged list (handlers/list.ts).
   */
  readonly snapshot?: object;
}

/**
 * MvccStore is the reference server's etcd: one global revision, every object's
 * resourceVersion is the revision of its last write, and past revisions stay
 * readable until compacted. Keys live in buckets (one per group/resource) and sort
 * like etcd keys, so paginated lists and continue tokens behave as upstream.
 */
export class MvccStore {
  private rev: number;
  private compactedRev = 0;
  private lastAgeCompaction = Number.NEGATIVE_INFINITY;
  private readonly buckets = new Map<string, Bucket>();
  /** Keys holding more than one version or a tombstone: the only ones compaction must visit. */
  private readonly dirty = new Map<string, Set<string>>();
  private events: StoreEvent[] = [];
  private readonly listeners = new Set<(e: StoreEvent) => void>();
  /** Visible keys of recent paginated-list snapshots (immutable: keyed by revision). */
  private readonly snapshots = new Map<string, { keys: string[]; objs: StoredObject[] }>();
  /** The texts of recent commits (object-text.ts). */
  private readonly texts = new KeptTexts();

  constructor(
    readonly history: HistoryWindow = DEFAULT_HISTORY,
    private readonly now: () => number = Date.now,
    initialRevision = 1,
  ) {
    this.rev = initialRevision;
  }

  /** The revision of the last write. */
  get revision(): number {
    return this.rev;
  }

  /** Reads below this revision fail with CompactedError. */
  get compactedRevision(): number {
    return this.compactedRev;
  }

  /** Called synchronously after every committed write, in revision order. */
  subscribe(listener: (e: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Events after `rev`, oldest first; throws CompactedError when some were compacted away. */
  eventsSince(rev: number): readonly StoreEvent[] {
    if (rev < this.compactedRev) throw new CompactedError(rev, this.compactedRev);
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.events[mid] as StoreEvent).rev <= rev) lo = mid + 1;
      else hi = mid;
    }
    return this.events.slice(lo);
  }

  get(bucket: string, key: string, atRev?: number): StoredObject | undefined {
    const at = this.checkRev(atRev);
    const versions = this.buckets.get(bucket)?.versions.get(key);
    return versions ? (versionAt(versions, at)?.obj ?? undefined) : undefined;
  }

  /** Number of live objects in a bucket at the current revision. */
  count(bucket: string): number {
    return this.buckets.get(bucket)?.live ?? 0;
  }

  list(bucket: string, opts: ListOptions = {}): ListResult {
    const at = this.checkRev(opts.atRev);
    const b = this.buckets.get(bucket);
    const items: StoredObject[] = [];
    if (!b) return { items, rev: at };
    const prefix = opts.prefix ?? "";
    // Unfiltered reads, paged or whole, share the snapshot of the revision they read.
    if (!opts.filter) {
      const limit = opts.limit && opts.limit > 0 ? opts.limit : Number.POSITIVE_INFINITY;
      return this.listFromSnapshot(bucket, b, prefix, at, { ...opts, limit });
    }
    const start = opts.startKey !== undefined && opts.startKey > prefix ? opts.startKey : prefix;
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Number.POSITIVE_INFINITY;
    let i = b.keys.lowerBound(start);
    for (; ; i++) {
      const key = b.keys.at(i);
      if (key === undefined || !key.startsWith(prefix)) break;
      const obj = this.visible(b, key, at);
      if (!obj || (opts.filter && !opts.filter(obj))) continue;
      if (items.length >= limit) {
        const remaining = opts.countRemaining ? this.countFrom(b, i, prefix, at, opts.filter) : undefined;
        return remaining === undefined
          ? { items, rev: at, nextKey: key }
          : { items, rev: at, nextKey: key, remaining };
      }
      items.push(obj);
    }
    return { items, rev: at };
  }

  /**
   * Pages of one unfiltered paginated list read the same snapshot; its visible keys are computed
   * once per (bucket, prefix, revision) and reused, so each page costs its own size (plus a binary
   * search) instead of a scan of everything after it for remainingItemCount. Whole lists of an
   * unchanged revision reuse it too, instead of a version lookup per key each time.
   */
  private listFromSnapshot(
    bucketName: string,
    b: Bucket,
    prefix: string,
    at: number,
    opts: ListOptions,
  ): ListResult {
    const cacheKey = `${bucketName}\u0000${prefix}\u0000${at}`;
    let snap = this.snapshots.get(cacheKey);
    if (!snap) {
      const keys: string[] = [];
      const objs: StoredObject[] = [];
      for (let i = b.keys.lowerBound(prefix); ; i++) {
        const key = b.keys.at(i);
        if (key === undefined || !key.startsWith(prefix)) break;
        const obj = this.visible(b, key, at);
        if (obj) {
          keys.push(key);
          objs.push(obj);
        }
      }
      snap = { keys, objs };
      this.snapshots.set(cacheKey, snap);
      if (this.snapshots.size > 8) this.snapshots.delete(this.snapshots.keys().next().value as string);
    }
    let lo = 0;
    const start = opts.startKey ?? "";
    let hi = snap.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((snap.keys[mid] as string) < start) lo = mid + 1;
      else hi = mid;
    }
    const end = Math.min(lo + (opts.limit as number), snap.keys.length);
    const items = snap.objs.slice(lo, end);
    if (end >= snap.keys.length) return lo === 0 ? { items, rev: at, snapshot: snap } : { items, rev: at };
    const nextKey = snap.keys[end] as string;
    return opts.countRemaining
      ? { items, rev: at, nextKey, remaining: snap.keys.length - end }
      : { items, rev: at, nextKey };
  }

  /**
   * With `maxBytes`, an object whose JSON (without the resourceVersion) is longer fails with
   * ObjectTooLargeError before anything else is checked, as etcd refuses the request first. It is
   * measured stamped for the next revision (commits are synchronous: the one this write takes), so
   * its text serves the response and watch frames too (stamp.ts, object-text.ts).
   */
  create(bucket: string, key: string, obj: StoredObject, maxBytes?: number): StoredObject {
    const sized = maxBytes === undefined ? undefined : stampWithin(obj, this.rev + 1, maxBytes);
    const b = this.bucket(bucket);
    const versions = b.versions.get(key);
    const latest = versions?.[versions.length - 1];
    if (latest?.obj) throw new PreconditionError("EXISTS", key);
    return this.commit(b, bucket, key, obj, latest?.obj ?? null, "ADDED", sized);
  }

  /** Replaces the object; with `expectRev` the write fails unless the current revision of the key matches. */
  update(
    bucket: string,
    key: string,
    obj: StoredObject,
    expectRev?: number,
    maxBytes?: number,
  ): StoredObject {
    const sized = maxBytes === undefined ? undefined : stampWithin(obj, this.rev + 1, maxBytes);
    const b = this.bucket(bucket);
    const latest = lastVersion(b, key);
    if (!latest?.obj) throw new PreconditionError("MISSING", key);
    if (expectRev !== undefined && latest.rev !== expectRev) throw new PreconditionError("REVISION", key);
    return this.commit(b, bucket, key, obj, latest.obj, "MODIFIED", sized);
  }

  /** Deletes the key; returns the last state stamped with the deletion's revision (as watchers see it). */
  delete(bucket: string, key: string, expectRev?: number): StoredObject {
    const b = this.bucket(bucket);
    const latest = lastVersion(b, key);
    if (!latest?.obj) throw new PreconditionError("MISSING", key);
    if (expectRev !== undefined && latest.rev !== expectRev) throw new PreconditionError("REVISION", key);
    return this.commit(b, bucket, key, null, latest.obj, "DELETED");
  }

  /** Forgets every revision before `rev` (default: the current one), like etcd's compaction. */
  compact(rev: number = this.rev): void {
    const target = Math.min(rev, this.rev);
    if (target <= this.compactedRev) return;
    this.compactedRev = target;
    for (const k of this.snapshots.keys())
      if (Number(k.slice(k.lastIndexOf("\u0000") + 1)) < target) this.snapshots.delete(k);
    let drop = 0;
    while (drop < this.events.length && (this.events[drop] as StoreEvent).rev <= target) drop++;
    if (drop > 0) this.events = this.events.slice(drop);
    for (const [bucketName, keys] of this.dirty) {
      const b = this.buckets.get(bucketName);
      if (!b) continue;
      for (const key of keys) {
        const versions = b.versions.get(key);
        if (!versions) {
          keys.delete(key);
          continue;
        }
        // Keep the newest version at or below the target (it answers reads at `target`) and all newer ones.
        let keepFrom = 0;
        for (let i = versions.length - 1; i >= 0; i--) {
          if ((versions[i] as Version).rev <= target) {
            keepFrom = i;
            break;
          }
        }
        const kept = versions.slice(keepFrom);
        if (kept.length === 1 && (kept[0] as Version).obj === null) {
          b.versions.delete(key);
          b.keys.remove(key);
          keys.delete(key);
        } else {
          b.versions.set(key, kept);
          if (kept.length === 1) keys.delete(key);
        }
      }
    }
  }

  private commit(
    b: Bucket,
    bucketName: string,
    key: string,
    obj: StoredObject | null,
    prev: StoredObject | null,
    type: StoreEventType,
    sized?: Measured<StoredObject>,
  ): StoredObject {
    const rev = ++this.rev;
    const stamped = sized?.stamped ?? stamp(obj ?? (prev as StoredObject), rev);
    if (sized) this.texts.remember(stamped, sized.text);
    const version: Version = { rev, obj: obj ? stamped : null };
    const versions = b.versions.get(key);
    // A new key's array is made at its size: an empty array's first push reserves 17 slots.
    if (versions) versions.push(version);
    else {
      b.versions.set(key, [version]);
      b.keys.insert(key);
    }
    if (versions !== undefined || obj === null) this.markDirty(bucketName, key);
    if (type === "ADDED") b.live++;
    if (type === "DELETED") b.live--;
    const event: StoreEvent = { rev, type, bucket: bucketName, key, object: stamped, prev, time: this.now() };
    this.events.push(event);
    this.enforceWindow();
    for (const l of this.listeners) l(event);
    return stamped;
  }

  private enforceWindow(): void {
    const { revisions, maxAgeMs } = this.history;
    let target = this.rev - revisions;
    const oldest = this.events[0];
    const now = this.now();
    let expired = false;
    if (oldest && now - oldest.time > maxAgeMs) {
      const cutoff = now - maxAgeMs;
      for (const e of this.events) {
        if (e.time >= cutoff) break;
        target = Math.max(target, e.rev);
        expired = true;
      }
    }
    // Compact in batches so a steady stream of writes does not pay for a compaction each; revisions
    // past their age go at least every AGE_COMPACTION_MS, however few they are.
    const batch = target - this.compactedRev >= Math.max(1, Math.min(1000, revisions >>> 4));
    const aged = expired && target > this.compactedRev && now - this.lastAgeCompaction >= AGE_COMPACTION_MS;
    if (batch || aged) {
      if (aged) this.lastAgeCompaction = now;
      this.compact(target);
    }
  }

  private markDirty(bucket: string, key: string): void {
    let keys = this.dirty.get(bucket);
    if (!keys) {
      keys = new Set();
      this.dirty.set(bucket, keys);
    }
    keys.add(key);
  }

  private bucket(name: string): Bucket {
    let b = this.buckets.get(name);
    if (!b) {
      b = { keys: new SortedKeys(), versions: new Map(), live: 0 };
      this.buckets.set(name, b);
    }
    return b;
  }

  private checkRev(atRev: number | undefined): number {
    if (atRev === undefined) return this.rev;
    if (atRev < this.compactedRev) throw new CompactedError(atRev, this.compactedRev);
    return Math.min(atRev, this.rev);
  }

  private visible(b: Bucket, key: string, at: number): StoredObject | null {
    const versions = b.versions.get(key);
    return versions ? (versionAt(versions, at)?.obj ?? null) : null;
  }

  private countFrom(
    b: Bucket,
    from: number,
    prefix: string,
    at: number,
    filter: ((o: StoredObject) => boolean) | undefined,
  ): number {
    let n = 0;
    for (let i = from; ; i++) {
      const key = b.keys.at(i);
      if (key === undefined || !key.startsWith(prefix)) return n;
      const obj = this.visible(b, key, at);
      if (obj && (!filter || filter(obj))) n++;
    }
  }
}

function lastVersion(b: Bucket, key: string): Version | undefined {
  const versions = b.versions.get(key);
  return versions?.[versions.length - 1];
}

function versionAt(versions: readonly Version[], at: number): Version | undefined {
  for (let i = versions.length - 1; i >= 0; i--) {
    const v = versions[i] as Version;
    if (v.rev <= at) return v;
  }
  return undefined;
}
