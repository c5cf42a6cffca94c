/** An append-only Float64Array that doubles when full: compact storage for per-request metrics. */
export class GrowableFloat64 {
  protected buf: Float64Array;
  length = 0;

  constructor(capacity = 256) {
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

  /** A view of the filled part (shares memory). */
  view(): Float64Array {
    return this.buf.subarray(0, this.length);
  }
}
