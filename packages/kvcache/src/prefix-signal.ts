import type { HashIndex } from './hash-index.js';
import { HashJournal } from './hash-journal.js';

/**
 * What a router that learns of cache contents through events (llm-d's KV-event stream, BLIS's
 * `--cache-signal-delay`) knows of one instance's prefix cache: the set of block hashes as of its
 * last {@link PrefixSignal.refresh}. Catching up replays the journal of changes since then, so a
 * refresh costs the number of changes, not the size of the cache.
 */
export class PrefixSignal {
  private readonly hashes = new Set<number>();
  private readonly journal: HashJournal;

  /** @internal Created by `KVCache.openPrefixSignal()`. */
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
}
