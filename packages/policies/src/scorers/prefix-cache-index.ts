import { LruSet } from './lru-set.js';

/**
 * The router's approximate picture of which KV blocks each instance holds: per instance an LRU
 * set of block hashes with a fixed capacity. Keys are instance ids (`InstanceSnapshot.index`),
 * so the picture survives instances joining or leaving the routable set.
 */
export class PrefixCacheIndex {
  readonly capacity: number;
  private readonly perInstance = new Map<number, LruSet>();
  /** Where preloaded values go, so the loads cannot be optimised away. */
  private sink = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new RangeError(`PrefixCacheIndex: capacity must be an integer > 0, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /**
   * Leading blocks of `hashes` recorded for `instanceId`, stopping at the first miss
   * (hierarchical hashes make a later hit without the earlier ones meaningless). Does not
   * refresh recency.
   */
  matchLength(hashes: ArrayLike<number>, instanceId: number): number {
    const set = this.perInstance.get(instanceId);
    if (set === undefined) return 0;
    let n = 0;
    while (n < hashes.length && set.has(hashes[n])) n++;
    return n;
  }

  /** Records `hashes` as held by `instanceId`, most recent last; evicts the LRU at capacity. */
  record(hashes: ArrayLike<number>, instanceId: number): void {
    let set = this.perInstance.get(instanceId);
    if (set === undefined) {
      set = new LruSet(this.capacity);
      this.perInstance.set(instanceId, set);
    }
    this.sink ^= set.preloadTouches(hashes);
    for (let i = 0; i < hashes.length; i++) set.touch(hashes[i]);
  }

  /** Number of block hashes tracked for an instance. */
  blockCount(instanceId: number): number {
    return this.perInstance.get(instanceId)?.size ?? 0;
  }
}
