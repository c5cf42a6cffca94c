import { EventHeap } from './event-heap.js';
import { EventKind, INSTANCE_CLASS_BASE } from './event-kinds.js';

/**
 * The simulator's event queue: hand-written binary min-heaps over parallel typed arrays.
 *
 * Order is (time, class, seq): `class` folds "cluster before instance, lower instance first,
 * then the event type's priority" into one number, and `seq` (insertion order) breaks the
 * remaining ties, so the order is total and deterministic. Events carry two integers
 * (`kind`, `arg`) instead of closures, so pushing an event allocates nothing once the arrays
 * have grown to the working size.
 *
 * Deadlines (`Timeout` events) wait in a heap of their own. With a timeout on every request
 * (300 s by default) each one leaves its deadline behind for minutes, tens of thousands of them
 * in a long run, and in one heap with the steps every step's pop and push would sift through
 * them all. Cluster events (admission, routing, P/D, flow control, the fleet) wait in a third,
 * so that an instance can see when the cluster next acts without looking past other instances'
 * steps (see {@link EventQueue.peekClusterTime}). The heaps share the numbering and a pop takes the
 * earliest head, so the order is the one a single heap gives.
 */
export class EventQueue {
  private readonly main: EventHeap;
  private readonly deadlines: EventHeap;
  private readonly cluster: EventHeap;
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
  /**
   * The heap whose head {@link EventQueue.pop} read but left in place. An instance's step pops
   * its own event and, as its last act, pushes its next step: that push replaces the head in one
   * sift down, where a removal and an insertion would take two passes. Anything else removes it
   * first.
   */
  private pending: EventHeap | null = null;

  constructor(initialCapacity = 1024) {
    this.main = new EventHeap(initialCapacity);
    this.deadlines = new EventHeap(initialCapacity);
    this.cluster = new EventHeap(16);
  }

  get size(): number {
    this.settle();
    return this.main.n + this.deadlines.n + this.cluster.n;
  }

  /** Timestamp of the earliest event, or Infinity when empty. */
  peekTime(): number {
    this.settle();
    const h = this.head();
    return h === undefined ? Number.POSITIVE_INFINITY : h.time[0];
  }

  /** Timestamp of the earliest cluster event (class below INSTANCE_CLASS_BASE), Infinity when none. */
  peekClusterTime(): number {
    if (this.pending === this.cluster) this.settle();
    return this.cluster.n === 0 ? Number.POSITIVE_INFINITY : this.cluster.time[0];
  }

  /** Timestamp of the earliest deadline (`Timeout` event) of any instance, Infinity when none. */
  peekDeadlineTime(): number {
    if (this.pending === this.deadlines) this.settle();
    return this.deadlines.n === 0 ? Number.POSITIVE_INFINITY : this.deadlines.time[0];
  }

  /** Class of the earliest event (meaningless when empty). */
  peekClass(): number {
    this.settle();
    const h = this.head();
    return h === undefined ? 0 : h.cls[0];
  }

  push(time: number, cls: number, kind: number, arg: number): void {
    const h = kind === EventKind.Timeout ? this.deadlines : cls < INSTANCE_CLASS_BASE ? this.cluster : this.main;
    const p = this.pending;
    if (p !== null) {
      this.pending = null;
      if (p === h) {
        h.replaceTop(time, cls, this.nextSeq++, kind, arg);
        return;
      }
      p.removeTop();
    }
    h.push(time, cls, this.nextSeq++, kind, arg);
  }

  /** Removes the earliest event into the `popped*` fields. Returns false when empty. */
  pop(): boolean {
    this.settle();
    const h = this.head();
    if (h === undefined) return false;
    this.poppedTime = h.time[0];
    this.poppedClass = h.cls[0];
    this.poppedKind = h.kind[0];
    this.poppedArg = h.arg[0];
    this.pending = h;
    return true;
  }

  clear(): void {
    this.pending = null;
    this.main.n = 0;
    this.deadlines.n = 0;
    this.cluster.n = 0;
  }

  /** Removes the head that {@link EventQueue.pop} left in place, if any. */
  private settle(): void {
    const p = this.pending;
    if (p !== null) {
      this.pending = null;
      p.removeTop();
    }
  }

  /** The heap holding the earliest event, undefined when all are empty. */
  private head(): EventHeap | undefined {
    const m = this.main;
    const d = this.deadlines;
    const c = this.cluster;
    let h: EventHeap | undefined;
    if (d.n === 0) h = m.n === 0 ? undefined : m;
    else h = m.n === 0 || d.headBefore(m) ? d : m;
    if (c.n === 0) return h;
    return h === undefined || c.headBefore(h) ? c : h;
  }
}
