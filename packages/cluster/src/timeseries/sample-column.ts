import { GrowableFloat64 } from '@blis/engine/internal';

/**
 * One signal's samples: the engine's doubling Float64Array, grown up to the recorder's cap. The
 * recorder keeps memory bounded by halving (every other sample) rather than by stopping, so a
 * long run still covers its whole timeline, at a coarser interval.
 */
export class SampleColumn extends GrowableFloat64 {
  constructor(capacity = 64) {
    super(capacity);
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
    return Array.from(this.view());
  }
}
