/**
 * The prefix-cache hashes an index gained and lost, in order, since a {@link PrefixSignal} last
 * caught up. A hash is at most once in an index, so the log is a sequence of set insertions
 * (`hash`) and deletions (`-hash - 1`).
 */
export class HashJournal {
  private log: Float64Array;
  private length = 0;

  /** Room for `capacity` (> 0) changes before the log grows. */
  constructor(capacity = 1024) {
    this.log = new Float64Array(capacity);
  }

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
