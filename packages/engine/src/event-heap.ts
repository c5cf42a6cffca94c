/**
 * A binary min-heap of events over parallel typed arrays, ordered by (time, class, seq); the
 * caller numbers the events (seq), so two heaps can share one insertion order (see
 * EventQueue). The earliest event is at index 0 of the public arrays.
 */
export class EventHeap {
  time: Float64Array;
  cls: Int32Array;
  seq: Float64Array;
  kind: Int32Array;
  arg: Int32Array;
  n = 0;

  constructor(initialCapacity: number) {
    const c = Math.max(4, initialCapacity);
    this.time = new Float64Array(c);
    this.cls = new Int32Array(c);
    this.seq = new Float64Array(c);
    this.kind = new Int32Array(c);
    this.arg = new Int32Array(c);
  }

  push(time: number, cls: number, s: number, kind: number, arg: number): void {
    if (this.n === this.time.length) this.grow();
    let i = this.n++;
    // Sift up with a hole instead of swaps.
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = this.time[p];
      if (pt < time || (pt === time && (this.cls[p] < cls || (this.cls[p] === cls && this.seq[p] < s)))) break;
      this.move(p, i);
      i = p;
    }
    this.time[i] = time;
    this.cls[i] = cls;
    this.seq[i] = s;
    this.kind[i] = kind;
    this.arg[i] = arg;
  }

  /** Removes the earliest event (the heap is not empty). */
  removeTop(): void {
    const last = --this.n;
    if (last === 0) return;
    this.siftDown(this.time[last], this.cls[last], this.seq[last], this.kind[last], this.arg[last], last);
  }

  /** Removes the earliest event and adds this one (the heap is not empty): one pass instead of two. */
  replaceTop(time: number, cls: number, s: number, kind: number, arg: number): void {
    this.siftDown(time, cls, s, kind, arg, this.n);
  }

  /** Places an event from the root down among the first `last` slots, with a hole instead of swaps. */
  private siftDown(t: number, c: number, s: number, k: number, a: number, last: number): void {
    let i = 0;
    const half = last >> 1;
    while (i < half) {
      let child = 2 * i + 1;
      const r = child + 1;
      if (r < last && this.less(r, child)) child = r;
      const ct = this.time[child];
      if (t < ct || (t === ct && (c < this.cls[child] || (c === this.cls[child] && s < this.seq[child])))) break;
      this.move(child, i);
      i = child;
    }
    this.time[i] = t;
    this.cls[i] = c;
    this.seq[i] = s;
    this.kind[i] = k;
    this.arg[i] = a;
  }

  /** True when this heap's earliest event comes before `other`'s (both non-empty). */
  headBefore(other: EventHeap): boolean {
    const ta = this.time[0];
    const tb = other.time[0];
    if (ta !== tb) return ta < tb;
    const ca = this.cls[0];
    const cb = other.cls[0];
    if (ca !== cb) return ca < cb;
    return this.seq[0] < other.seq[0];
  }

  private less(a: number, b: number): boolean {
    const ta = this.time[a];
    const tb = this.time[b];
    if (ta !== tb) return ta < tb;
    const ca = this.cls[a];
    const cb = this.cls[b];
    if (ca !== cb) return ca < cb;
    return this.seq[a] < this.seq[b];
  }

  private move(from: number, to: number): void {
    this.time[to] = this.time[from];
    this.cls[to] = this.cls[from];
    this.seq[to] = this.seq[from];
    this.kind[to] = this.kind[from];
    this.arg[to] = this.arg[from];
  }

  private grow(): void {
    const c = this.time.length * 2;
    const t = new Float64Array(c);
    t.set(this.time);
    this.time = t;
    const cl = new Int32Array(c);
    cl.set(this.cls);
    this.cls = cl;
    const s = new Float64Array(c);
    s.set(this.seq);
    this.seq = s;
    const k = new Int32Array(c);
    k.set(this.kind);
    this.kind = k;
    const a = new Int32Array(c);
    a.set(this.arg);
    this.arg = a;
  }
}
