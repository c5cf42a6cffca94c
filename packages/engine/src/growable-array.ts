/** An append-only Float64Array that doubles when full: compact storage for per-request metrics. */
export class GrowableFloat64 {
  protected buf: Float64Array;
  length = 0;

  /** `first`: the storage to start in (see {@link GrowableFloat64.columns}), else a new one of `capacity`. */
  constructor(capacity = 256, first?: Float64Array) {
    this.buf = first ?? new Float64Array(capacity);
  }

  /**
   * `count` arrays whose first `capacity` values share one buffer. Each typed array past 64
   * bytes gets its own off-heap store, which costs V8 (Node 20) about a microsecond to set up
   * and the GC to track: a log of ten columns, built per instance per run (a search builds
   * thousands), costs one instead of ten. An array that outgrows its share moves to a buffer of
   * its own, as any does.
   */
  static columns(count: number, capacity = 256): GrowableFloat64[] {
    const shared = new ArrayBuffer(8 * count * capacity);
    return Array.from({ length: count }, (_, i) => new GrowableFloat64(capacity, new Float64Array(shared, 8 * capacity * i, capacity)));
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

  /** A view of the filled part (shares memory). */
  view(): Float64Array {
    return this.buf.subarray(0, this.length);
  }
}
