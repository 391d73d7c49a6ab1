/**
 * Rendezvous (highest-random-weight) hashing: which member of a view owns a key.
 *
 * Contract: `shardOwner(key, members)` is a pure function of the key and the *set* of members (order
 * and duplicates do not matter), the same in every process and Node version. Each member wins a key
 * with equal probability; adding a member moves only the keys the newcomer now wins, removing one
 * moves only the keys it owned. Ties (astronomically rare) go to the smaller identity.
 *
 * Why rendezvous and not a ring: a controller has a handful of replicas, so scoring every member per
 * key is cheap (O(members)), needs no virtual nodes to balance, and moves exactly the keys whose owner
 * changed — the same guarantee a ring gives only approximately without many virtual nodes.
 */

/**
 * 32-bit FNV-1a over UTF-16 code units, then murmur3's finaliser for avalanche. Written here because
 * it is ten lines, must be identical in every replica forever (a library upgrade that changed it
 * would split ownership between old and new replicas), and node:crypto digests cost ~20× more.
 */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The weight of `member` for `key`: the member with the highest weight owns the key. */
export function rendezvousWeight(member: string, key: string): number {
  return hash32(`${member}\u0000${key}`);
}

/** The owner of `key` among `members`, or undefined for an empty view. */
export function shardOwner(key: string, members: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestWeight = -1;
  for (const m of members) {
    const w = rendezvousWeight(m, key);
    if (w > bestWeight || (w === bestWeight && best !== undefined && m < best)) {
      best = m;
      bestWeight = w;
    }
  }
  return best;
}
