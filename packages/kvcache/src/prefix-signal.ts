import type { HashIndex } from './hash-index.js';
import { HashJournal } from './hash-journal.js';

/**
 * What a router that learns of cache contents through events (llm-d's KV-event stream, BLIS's
 * `--cache-signal-delay`) knows of one instance's prefix cache: the set of block hashes as of its
 * last {@link PrefixSignal.refresh}. Catching up replays the journal of changes since then, so a
 * refresh costs the number of changes, not the size of the cache.
 */
export interface PrefixSignal {
  /** Catches up with the cache as it is now. */
  refresh(): void;
  /** Leading `hashes` the cache held at the last refresh. */
  cachedPrefixBlocks(hashes: ArrayLike<number>, maxBlocks?: number): number;
}

/** The {@link PrefixSignal} of a cache's hash index: a hash set kept by replaying its journal. */
export class JournalledPrefixSignal implements PrefixSignal {
  private hashes = new Set<number>();
  private journal: HashJournal;

  constructor(index: HashIndex) {
    index.forEach((hash) => {
      this.hashes.add(hash);
    });
    this.journal = new HashJournal();
    index.journal = this.journal;
  }

  /** Catches up with the cache as it is now. */
  refresh(): void {
    this.journal.drainInto(this.hashes);
  }

  /** Leading `hashes` the cache held at the last refresh. */
  cachedPrefixBlocks(hashes: ArrayLike<number>, maxBlocks = hashes.length): number {
    const n = Math.min(maxBlocks, hashes.length);
    let i = 0;
    while (i < n && this.hashes.has(hashes[i])) i++;
    return i;
  }

  /**
   * Drops the hash set and the journal: the cache was retired, holds nothing and will never
   * change again, so the signal shows an empty cache from now on. Whoever still holds the signal
   * (a router's snapshot of the replica) no longer keeps the set alive.
   */
  release(): void {
    this.hashes = new Set<number>();
    this.journal = new HashJournal(1);
  }
}
