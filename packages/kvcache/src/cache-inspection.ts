import type { BlockStore } from './block-store.js';
import { KVCacheError } from './errors.js';
import type { HashIndex } from './hash-index.js';
import type { OwnerTable } from './owner-table.js';

const NONE = -1;

// Whole-cache walks for tests and diagnostics (O(blocks)), kept out of the cache's own module.

/** Where a cache's blocks are: its free order, prefix index and the blocks of the owners asked about. */
export interface BlockLayout {
  /** Free block ids in LRU order: the next allocation takes from the front. */
  freeOrder: number[];
  /** Prefix index entries as [hash, block], by ascending hash. */
  index: [number, number][];
  /** Per owner asked about: its block ids in order, or null when it holds no record. */
  owners: (number[] | null)[];
  /** Per owner asked about: the tokens it stores. */
  tokens: number[];
}

/** Counters a cache keeps over its lifetime. */
export interface KVCacheStats {
  /** Blocks reused through the prefix cache. */
  cacheHits: number;
  /** Blocks filled fresh. */
  cacheMisses: number;
  /** Allocation calls that returned false. */
  allocationFailures: number;
}

/** Everything a caller can observe of a cache's block layout, for tests and diagnostics. */
export interface KVCacheSnapshot extends BlockLayout {
  usedBlocks: number;
  stats: KVCacheStats;
}

/** The free order, the prefix index by ascending hash, and the blocks of each of `asked`. */
export function blockLayout(store: BlockStore, index: HashIndex, owners: OwnerTable, asked: readonly number[]): BlockLayout {
  const freeOrder: number[] = [];
  store.forEachFree((id) => {
    freeOrder.push(id);
  });
  const entries: [number, number][] = [];
  index.forEach((hash, id) => {
    entries.push([hash, id]);
  });
  entries.sort((a, b) => a[0] - b[0]);
  const held = asked.map((o) => {
    if (!owners.has(o)) return null;
    const ids: number[] = [];
    for (let i = 0; i < owners.length(o); i++) ids.push(owners.blockAt(o, i));
    return ids;
  });
  return { freeOrder, index: entries, owners: held, tokens: asked.map((o) => owners.tokens(o)) };
}

/**
 * Checks a cache's blocks against its `used` counter and its owners' lists: INV-4 (used + free =
 * total), the free ring's stale-entry count, every block's reference count (a hashed block's
 * record against the lists naming it; a block without a hash held by one list at most, the lists
 * marking exactly the blocks that carry a hash), and that each prefix index entry is found under
 * its own hash. Throws a {@link KVCacheError} on the first inconsistency.
 */
export function checkCacheConsistency(store: BlockStore, index: HashIndex, used: number, owners: OwnerTable): void {
  const total = store.total;
  let free = 0;
  const seen = new Uint8Array(total);
  store.forEachFree((id) => {
    if (seen[id] !== 0) throw new KVCacheError(`block ${id} is free twice`);
    seen[id] = 1;
    free++;
  });
  const stale = store.countStale();
  if (stale !== store.staleEntries) throw new KVCacheError(`free ring holds ${stale} stale entries but counts ${store.staleEntries}`);
  if (free + used !== total) throw new KVCacheError(`INV-4 violated: used ${used} + free ${free} != total ${total}`);
  const listed = new Int32Array(total);
  owners.forEachBlock((owner, id, hashed) => {
    if (hashed !== (store.hashOf(id) !== NONE)) throw new KVCacheError(`owner ${owner}'s list marks block ${id} as ${hashed ? '' : 'not '}carrying a hash, but it ${hashed ? 'does not' : 'does'}`);
    listed[id]++;
  });
  let referenced = 0;
  for (let id = 0; id < total; id++) {
    const hashed = store.hashOf(id) !== NONE;
    const rc = hashed ? store.refOf(id) : listed[id];
    if (hashed && rc !== listed[id]) throw new KVCacheError(`block ${id} has refcount ${rc} but ${listed[id]} owners hold it`);
    if (!hashed && rc > 1) throw new KVCacheError(`block ${id} carries no hash but ${rc} owners hold it`);
    if (rc > 0) {
      referenced++;
      if (seen[id] !== 0) throw new KVCacheError(`block ${id} is held but also free`);
    } else if (rc < 0) throw new KVCacheError(`block ${id} has refcount ${rc}`);
    else if (seen[id] === 0) throw new KVCacheError(`block ${id} has refcount 0 but is not free`);
  }
  if (referenced !== used) throw new KVCacheError(`used counter ${used} != blocks with refcount ${referenced}`);
  let registered = 0;
  index.forEach((hash, id) => {
    if (hash === NONE) throw new KVCacheError(`hash index holds block ${id}, which carries no hash`);
    if (index.get(hash) !== id) throw new KVCacheError(`hash index cannot find ${hash} (block ${id})`);
    registered++;
  });
  if (registered !== index.size) throw new KVCacheError(`hash index counts ${index.size} hashes but ${registered} blocks are registered`);
}
