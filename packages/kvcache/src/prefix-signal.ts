import type { HashIndex } from './hash-index.js';
import { PriorStateTable } from './prior-state-table.js';

/**
 * What a router that learns of cache contents through events (llm-d's KV-event stream, BLIS's
 * `--cache-signal-delay`) knows of one instance's prefix cache: the set of block hashes as of its
 * last {@link PrefixSignal.refresh}.
 */
export interface PrefixSignal {
  /** Catches up with the cache as it is now. */
  refresh(): void;
  /** Leading `hashes` the cache held at the last refresh. */
  cachedPrefixBlocks(hashes: ArrayLike<number>, maxBlocks?: number): number;
}

/**
 * The {@link PrefixSignal} of a cache's hash index, read through the live index: a hash that
 * has not changed since the last refresh is answered by the index, one that has by what it was
 * at the refresh, which the index's changes record (see {@link PriorStateTable}). A refresh just
 * starts a new epoch of records: the view never copies the cache's hash set nor replays its
 * changes into one.
 */
export class DelayedPrefixSignal implements PrefixSignal {
  private index: HashIndex | undefined;
  private changes: PriorStateTable;

  constructor(index: HashIndex) {
    this.index = index;
    this.changes = new PriorStateTable();
    index.watcher = this.changes;
  }

  /** Catches up with the cache as it is now. */
  refresh(): void {
    this.changes.advance();
  }

  /** Leading `hashes` the cache held at the last refresh. */
  cachedPrefixBlocks(hashes: ArrayLike<number>, maxBlocks = hashes.length): number {
    const index = this.index;
    if (index === undefined) return 0;
    const n = Math.min(maxBlocks, hashes.length);
    const changes = this.changes;
    let i = 0;
    if (changes.unchanged) {
      while (i < n && index.get(hashes[i]) !== -1) i++;
      return i;
    }
    for (; i < n; i++) {
      const h = hashes[i];
      const before = changes.lookup(h);
      if (before === 0 || (before === -1 && index.get(h) === -1)) break;
    }
    return i;
  }

  /**
   * Lets go of the index and the records: the cache was retired, holds nothing and will never
   * change again, so the signal shows an empty cache from now on. Whoever still holds the signal
   * (a router's snapshot of the replica) no longer keeps the cache's memory alive.
   */
  release(): void {
    if (this.index !== undefined) this.index.watcher = undefined;
    this.index = undefined;
    this.changes = new PriorStateTable(1);
  }
}
