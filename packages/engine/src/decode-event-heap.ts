/**
 * A min-heap of (step, seq) pairs: bulk-decoded requests' next events (a KV block boundary or a
 * completion) by instance step, ties in admission order, which is running order. The calendar
 * (decode-calendar.ts) keeps here the events too far ahead for its ring.
 */
export class DecodeEventHeap {
  private step = new Float64Array(64);
  private seq = new Float64Array(64);
  private n = 0;

  get size(): number {
    return this.n;
  }

  /** The earliest event's step; Infinity when empty. */
  peekStep(): number {
    return this.n === 0 ? Number.POSITIVE_INFINITY : this.step[0];
  }

  /** The earliest event's request (its admission seq). */
  peekSeq(): number {
    return this.seq[0];
  }

  clear(): void {
    this.n = 0;
  }

  push(step: number, seq: number): void {
    if (this.n === this.step.length) this.grow();
    let i = this.n++;
    const st = this.step;
    const sq = this.seq;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (st[p] < step || (st[p] === step && sq[p] < seq)) break;
      st[i] = st[p];
      sq[i] = sq[p];
      i = p;
    }
    st[i] = step;
    sq[i] = seq;
  }

  /** Removes the earliest event (see {@link peekStep}, {@link peekSeq}). */
  pop(): void {
    const n = --this.n;
    if (n === 0) return;
    const st = this.step;
    const sq = this.seq;
    const step = st[n];
    const seq = sq[n];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && (st[c + 1] < st[c] || (st[c + 1] === st[c] && sq[c + 1] < sq[c]))) c++;
      if (step < st[c] || (step === st[c] && seq < sq[c])) break;
      st[i] = st[c];
      sq[i] = sq[c];
      i = c;
    }
    st[i] = step;
    sq[i] = seq;
  }

  private grow(): void {
    const step = new Float64Array(this.step.length * 2);
    step.set(this.step);
    this.step = step;
    const seq = new Float64Array(this.seq.length * 2);
    seq.set(this.seq);
    this.seq = seq;
  }
}
