/**
 * Groups of logged creates that a watch filtering by labels only must judge alike: ADDED events of
 * one bucket, namespace and apiVersion with the same labels (in the same order) share a group
 * number. The frame log records each frame's group as it is appended (frame-log.ts), so a replay
 * judges a group once, on its first event, and then each of the group's frames by a number
 * (replay-runs.ts) instead of running the selector per event in code a fresh server runs for the
 * first time.
 *
 * Interned in a trie of Maps keyed by the strings themselves, so no key string is built per write
 * (V8 caches a string's hash): a few Map lookups per create. Group numbers only grow, so a number
 * never names two label sets; the trie is dropped when it holds too many groups (objects with
 * labels of their own), and label sets met again then get new numbers.
 */
import type { StoreEvent } from "../storage/mvcc.js";

/** The group of an event that is in none (not an ADDED, or labels that are not all strings). */
export const NO_GROUP = 0;

/** Groups the trie holds before it is dropped (a few hundred KiB of Maps at most). */
const MAX_GROUPS = 1024;

interface GroupNode {
  /** Made on the first step from this node: most leaves never have one. */
  next: Map<string, GroupNode> | undefined;
  group: number;
}

const newNode = (): GroupNode => ({ next: undefined, group: NO_GROUP });

function step(node: GroupNode, key: string): GroupNode {
  node.next ??= new Map();
  let n = node.next.get(key);
  if (n === undefined) {
    n = newNode();
    node.next.set(key, n);
  }
  return n;
}

export class LabelGroups {
  private root = newNode();
  private held = 0;
  private last = NO_GROUP;

  /** The group of a logged event. */
  groupOf(e: StoreEvent): number {
    if (e.type !== "ADDED") return NO_GROUP;
    const obj = e.object;
    const ns = obj.metadata.namespace ?? "";
    const labels = obj.metadata.labels;
    if (typeof ns !== "string" || typeof obj.apiVersion !== "string") return NO_GROUP;
    let node = step(step(step(this.root, e.bucket), ns), obj.apiVersion);
    if (labels !== undefined && labels !== null) {
      if (typeof labels !== "object") return NO_GROUP;
      for (const k in labels) {
        const v = (labels as Record<string, unknown>)[k];
        if (typeof v !== "string") return NO_GROUP;
        node = step(step(node, k), v);
      }
    }
    if (node.group !== NO_GROUP) return node.group;
    if (this.held >= MAX_GROUPS) {
      this.clear();
      return this.groupOf(e);
    }
    this.held++;
    node.group = ++this.last;
    return node.group;
  }

  clear(): void {
    this.root = newNode();
    this.held = 0;
  }
}
