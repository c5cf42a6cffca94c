import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClockRegressionError } from '../src/index.js';
import { EventKind, EventQueue, INSTANCE_CLASS_BASE, SimClock, clusterClass, instanceClass } from '../src/internal.js';

interface Ev {
  time: number;
  cls: number;
  kind: number;
  arg: number;
}

function drain(q: EventQueue): Ev[] {
  const out: Ev[] = [];
  while (q.pop()) out.push({ time: q.poppedTime, cls: q.poppedClass, kind: q.poppedKind, arg: q.poppedArg });
  return out;
}

/** The specified order: time, then class, then insertion order (a stable sort by time and class). */
function reference(pushed: readonly Ev[]): Ev[] {
  return pushed
    .map((e, seq) => ({ e, seq }))
    .sort((a, b) => a.e.time - b.e.time || a.e.cls - b.e.cls || a.seq - b.seq)
    .map((x) => x.e);
}

const evArb = fc.record({
  // Few distinct times and classes, so that ties are the rule, not the exception.
  time: fc.integer({ min: 0, max: 20 }),
  // Cluster classes and instance classes: cluster events wait in a heap of their own too.
  cls: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.integer({ min: INSTANCE_CLASS_BASE, max: INSTANCE_CLASS_BASE + 6 })),
  // Deadlines (Timeout) wait in a heap of their own: a third of the events, ties with the rest included.
  kind: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant(EventKind.Timeout), fc.constant(EventKind.Timeout)),
  arg: fc.integer({ min: -1, max: 1_000_000 }),
});

/**
 * What a queue must hold after a script of pushes and pops: pops checked against a stable sort,
 * pushes made relative to the last pop's time (a simulator schedules at or after its clock).
 */
class ReferenceQueue {
  readonly pending: { e: Ev; seq: number }[] = [];
  private seq = 0;
  private now = 0;

  push(q: EventQueue, ev: Ev): void {
    const e = { ...ev, time: this.now + ev.time };
    q.push(e.time, e.cls, e.kind, e.arg);
    this.pending.push({ e, seq: this.seq++ });
  }

  pop(q: EventQueue): void {
    this.pending.sort((a, b) => a.e.time - b.e.time || a.e.cls - b.e.cls || a.seq - b.seq);
    const want = this.pending.shift();
    expect(q.pop()).toBe(want !== undefined);
    if (want === undefined) return;
    expect({ time: q.poppedTime, cls: q.poppedClass, kind: q.poppedKind, arg: q.poppedArg }).toEqual(want.e);
    this.now = want.e.time;
  }

  earliest(keep: (e: Ev) => boolean): number {
    return Math.min(...this.pending.filter((p) => keep(p.e)).map((p) => p.e.time));
  }

  /** What draining the queue must give now. */
  rest(): Ev[] {
    return [...this.pending].sort((a, b) => a.e.time - b.e.time || a.e.cls - b.e.cls || a.seq - b.seq).map((p) => p.e);
  }
}

describe('EventQueue', () => {
  it('pops by time, then class, then insertion order (hand-written example)', () => {
    const q = new EventQueue(4);
    const step0 = instanceClass(0, EventKind.Step);
    const queued0 = instanceClass(0, EventKind.Queued);
    const queued1 = instanceClass(1, EventKind.Queued);
    const arrival = clusterClass(EventKind.ClusterArrival);
    q.push(10, step0, EventKind.Step, 1);
    q.push(10, queued1, EventKind.Queued, 2);
    q.push(10, queued0, EventKind.Queued, 3);
    q.push(5, step0, EventKind.Step, 4);
    q.push(10, arrival, EventKind.ClusterArrival, 5);
    q.push(10, queued0, EventKind.Queued, 6);
    expect(q.size).toBe(6);
    expect(q.peekTime()).toBe(5);
    // Time 5 first; at time 10 the cluster arrival, then instance 0 (queued before step, queued
    // events in insertion order), then instance 1.
    expect(drain(q).map((e) => e.arg)).toEqual([4, 5, 3, 6, 1, 2]);
    expect(q.size).toBe(0);
    expect(q.peekTime()).toBe(Number.POSITIVE_INFINITY);
    expect(q.pop()).toBe(false);
  });

  it('orders same-tick instance events arrival < queued < step < timeout, and instance i before i+1', () => {
    const kinds = [EventKind.InstanceArrival, EventKind.Queued, EventKind.Step, EventKind.Timeout];
    for (let i = 0; i < kinds.length - 1; i++) expect(instanceClass(0, kinds[i])).toBeLessThan(instanceClass(0, kinds[i + 1]));
    expect(instanceClass(0, EventKind.Timeout)).toBeLessThan(instanceClass(1, EventKind.InstanceArrival));
    expect(clusterClass(EventKind.GatewayDispatch)).toBeLessThan(instanceClass(0, EventKind.InstanceArrival));
  });

  it('matches a stable sort of everything pushed', () => {
    fc.assert(
      fc.property(fc.array(evArb, { maxLength: 300 }), fc.integer({ min: 1, max: 8 }), (evs, cap) => {
        const q = new EventQueue(cap);
        for (const e of evs) q.push(e.time, e.cls, e.kind, e.arg);
        expect(drain(q)).toEqual(reference(evs));
      }),
    );
  });

  it('matches the reference under interleaved pushes and pops (times never behind the last pop)', () => {
    const script = fc.array(fc.oneof(fc.record({ push: evArb }), fc.constant('pop' as const)), { maxLength: 300 });
    fc.assert(
      fc.property(script, (ops) => {
        const q = new EventQueue(2);
        const ref = new ReferenceQueue();
        for (const op of ops) {
          if (op === 'pop') ref.pop(q);
          else ref.push(q, op.push);
          expect(q.size).toBe(ref.pending.length);
          expect(q.peekClusterTime()).toBe(ref.earliest((e) => e.kind !== EventKind.Timeout && e.cls < INSTANCE_CLASS_BASE));
          expect(q.peekDeadlineTime()).toBe(ref.earliest((e) => e.kind === EventKind.Timeout));
        }
      }),
    );
  });

  it('matches the reference when a push follows a pop directly (the popped head replaced in one pass)', () => {
    // Nothing read between a pop and the next push: the queue then replaces the head it left in
    // place instead of removing it first. Reads, when the script has them, come at random points.
    const op = fc.oneof(
      { weight: 4, arbitrary: fc.record({ push: evArb }) },
      { weight: 3, arbitrary: fc.constant('pop' as const) },
      { weight: 1, arbitrary: fc.constantFrom('size' as const, 'peek' as const, 'cluster' as const, 'deadline' as const) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const q = new EventQueue(2);
        const ref = new ReferenceQueue();
        for (const o of ops) {
          if (o === 'pop') ref.pop(q);
          else if (o === 'size') expect(q.size).toBe(ref.pending.length);
          else if (o === 'peek') expect(q.peekTime()).toBe(ref.earliest(() => true));
          else if (o === 'cluster') expect(q.peekClusterTime()).toBe(ref.earliest((e) => e.kind !== EventKind.Timeout && e.cls < INSTANCE_CLASS_BASE));
          else if (o === 'deadline') expect(q.peekDeadlineTime()).toBe(ref.earliest((e) => e.kind === EventKind.Timeout));
          else ref.push(q, o.push);
        }
        expect(drain(q)).toEqual(ref.rest());
      }),
    );
  });

  it('is deterministic: the same pushes give the same pops', () => {
    fc.assert(
      fc.property(fc.array(evArb, { maxLength: 200 }), (evs) => {
        const a = new EventQueue();
        const b = new EventQueue(1);
        for (const e of evs) {
          a.push(e.time, e.cls, e.kind, e.arg);
          b.push(e.time, e.cls, e.kind, e.arg);
        }
        expect(drain(a)).toEqual(drain(b));
      }),
    );
  });

  it('keeps fractional-free integer ticks exact up to 2^53', () => {
    const q = new EventQueue();
    const big = 2 ** 52;
    q.push(big + 1, 0, 0, 1);
    q.push(big, 0, 0, 2);
    expect(drain(q).map((e) => e.arg)).toEqual([2, 1]);
  });

  it('clear() empties the queue', () => {
    const q = new EventQueue();
    q.push(1, 0, 0, 0);
    q.clear();
    expect(q.size).toBe(0);
    expect(q.pop()).toBe(false);
  });
});

describe('SimClock', () => {
  it('moves forward and stays put, but refuses to go backwards (INV-3)', () => {
    const c = new SimClock();
    expect(c.now).toBe(0);
    c.advanceTo(10);
    c.advanceTo(10);
    expect(c.now).toBe(10);
    expect(() => c.advanceTo(9)).toThrow(ClockRegressionError);
    try {
      c.advanceTo(3);
    } catch (e) {
      expect(e).toBeInstanceOf(ClockRegressionError);
      expect((e as ClockRegressionError).from).toBe(10);
      expect((e as ClockRegressionError).to).toBe(3);
      expect((e as Error).message).toMatch(/INV-3/);
    }
    expect(c.now).toBe(10);
  });

  it('accepts any non-decreasing sequence and rejects the first decrease', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 50 }), (ts) => {
        const c = new SimClock();
        let max = 0;
        for (const t of ts) {
          if (t < max) {
            expect(() => c.advanceTo(t)).toThrow(ClockRegressionError);
            expect(c.now).toBe(max);
          } else {
            c.advanceTo(t);
            max = t;
            expect(c.now).toBe(t);
          }
        }
      }),
    );
  });
});
