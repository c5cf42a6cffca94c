/**
 * One signal's samples, in a typed array that grows by doubling up to the recorder's cap. The
 * recorder keeps memory bounded by halving (every other sample) rather than by stopping, so a
 * long run still covers its whole timeline, at a coarser interval.
 */
export class SampleColumn {
  private buf: Float64Array;
  length = 0;

  constructor(capacity = 64) {
    this.buf = new Float64Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = v;
  }

  get(i: number): number {
    return this.buf[i];
  }

  /** Keeps the samples at positions `first`, `first + 2`, ... (the grid points of the doubled interval). */
  keepEveryOther(first: number): void {
    let n = 0;
    for (let i = first; i < this.length; i += 2) this.buf[n++] = this.buf[i];
    this.length = n;
  }

  /** Drops the samples from position `n` on. */
  truncate(n: number): void {
    if (n < this.length) this.length = Math.max(0, n);
  }

  toArray(): number[] {
    return Array.from(this.buf.subarray(0, this.length));
  }
}
