/**
 * The simulator's event queue: a hand-written binary min-heap over parallel typed arrays.
 *
 * Order is (time, class, seq): `class` folds "cluster before instance, lower instance first,
 * then the event type's priority" into one number, and `seq` (insertion order) breaks the
 * remaining ties, so the order is total and deterministic. Events carry two integers
 * (`kind`, `arg`) instead of closures, so pushing an event allocates nothing once the arrays
 * have grown to the working size.
 */
export class EventQueue {
  private time: Float64Array;
  private cls: Int32Array;
  private seq: Float64Array;
  private kind: Int32Array;
  private arg: Int32Array;
  private n = 0;
  private nextSeq = 0;

  /**
   * Filled by {@link pop}: the popped event's fields. The time starts as -0, a double: times past
   * 2^30 µs (18 minutes) are not small integers to V8, and the first one stored in a field
   * that began as the integer 0 would change the object's layout mid-run and throw away the
   * optimised code of everything that reads it.
   */
  poppedTime = -0;
  poppedClass = 0;
  poppedKind = 0;
  poppedArg = 0;

  constructor(initialCapacity = 1024) {
    const c = Math.max(4, initialCapacity);
    this.time = new Float64Array(c);
    this.cls = new Int32Array(c);
    this.seq = new Float64Array(c);
    this.kind = new Int32Array(c);
    this.arg = new Int32Array(c);
  }

  get size(): number {
    return this.n;
  }

  /** Timestamp of the earliest event, or Infinity when empty. */
  peekTime(): number {
    return this.n === 0 ? Number.POSITIVE_INFINITY : this.time[0];
  }

  /** Class of the earliest event (meaningless when empty). */
  peekClass(): number {
    return this.cls[0];
  }

  push(time: number, cls: number, kind: number, arg: number): void {
    if (this.n === this.time.length) this.grow();
    let i = this.n++;
    const s = this.nextSeq++;
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

  /** Removes the earliest event into the `popped*` fields. Returns false when empty. */
  pop(): boolean {
    if (this.n === 0) return false;
    this.poppedTime = this.time[0];
    this.poppedClass = this.cls[0];
    this.poppedKind = this.kind[0];
    this.poppedArg = this.arg[0];
    const last = --this.n;
    if (last > 0) {
      const t = this.time[last];
      const c = this.cls[last];
      const s = this.seq[last];
      const k = this.kind[last];
      const a = this.arg[last];
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
    return true;
  }

  clear(): void {
    this.n = 0;
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
