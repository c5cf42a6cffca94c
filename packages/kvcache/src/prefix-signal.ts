import type { HashIndex } from './hash-index.js';

/**
 * The prefix-cache hashes an index gained and lost, in order, since a {@link PrefixSignal} last
 * caught up. A hash is at most once in an index, so the log is a sequence of set insertions
 * (`hash`) and deletions (`-hash - 1`).
 */
export class HashJournal {
  private log = new Float64Array(1024);
  private length = 0;

  added(hash: number): void {
    if (this.length === this.log.length) this.grow();
    this.log[this.length++] = hash;
  }

  removed(hash: number): void {
    if (this.length === this.log.length) this.grow();
    this.log[this.length++] = -hash - 1;
  }

  /** Applies the log to `set` and empties it. */
  drainInto(set: Set<number>): void {
    const log = this.log;
    for (let i = 0; i < this.length; i++) {
      const v = log[i];
      if (v >= 0) set.add(v);
      else set.delete(-v - 1);
    }
    this.length = 0;
  }

  private grow(): void {
    const next = new Float64Array(this.log.length * 2);
    next.set(this.log);
    this.log = next;
  }
}

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
