/**
 * The sum of `values[start..end)` added left to right from 0, as BLIS's `mean` adds, so that a
 * mean is the same float BLIS prints. Kept between calls: a range that only grows at its end
 * costs the new values; one that moves its start is added again from scratch.
 */
export class SequentialSum {
  private start = 0;
  private end = 0;
  private sum = 0;

  of(values: readonly number[], start: number, end: number): number {
    if (start !== this.start || end < this.end) {
      this.start = start;
      this.end = start;
      this.sum = 0;
    }
    for (let i = this.end; i < end; i++) this.sum += values[i];
    this.end = end;
    return this.sum;
  }

  /** The mean of `values[start..end)`, 0 for an empty range. */
  meanOf(values: readonly number[], start: number, end: number): number {
    return end > start ? this.of(values, start, end) / (end - start) : 0;
  }

  reset(): void {
    this.start = 0;
    this.end = 0;
    this.sum = 0;
  }
}
