import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeCalendar } from '../src/decode-calendar.js';
import { DecodeEventHeap } from '../src/decode-event-heap.js';
import { InvariantViolation } from '../src/invariant-error.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// Bulk decode's calendar against the heap it replaced: the same events, step by step, in the
// same (seq) order, with the hints of the events that stayed in the ring.

interface Taken {
  seq: number;
  pos: number;
  mark: number;
}

function take(cal: DecodeCalendar, step: number): Taken[] {
  const n = cal.takeDue(step);
  const out: Taken[] = [];
  for (let k = 0; k < n; k++) {
    const at = cal.dueAt + 3 * k;
    out.push({ seq: cal.events[at], pos: cal.events[at + 1], mark: cal.events[at + 2] });
  }
  return out;
}

type Op = { t: 'push'; ahead: number; seq: number; pos: number; mark: number } | { t: 'take' } | { t: 'advance' } | { t: 'clear' };

// Offsets up to four rings of the largest calendar ahead: a fair share go to the far heap.
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('push' as const),
      ahead: fc.oneof(fc.nat(32), fc.nat(128)),
      // Unique seqs (made so below) in any order: a bucket fills from several steps' pushes.
      seq: fc.nat(999),
      pos: fc.nat(96),
      mark: fc.nat(12),
    }),
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('advance' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('take' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('clear' as const) }) },
);

describe('DecodeCalendar', () => {
  it('takes a step’s events in seq order, whatever order they were pushed in (hand-written example)', () => {
    const cal = new DecodeCalendar(18);
    expect(cal.horizon).toBe(32);
    cal.push(3, 9, 4, 0);
    cal.push(1, 5, 2, 0);
    cal.push(3, 2, 1, 0);
    cal.push(3, 7, 3, 1);
    cal.push(40, 1, 0, 0); // beyond the ring: the far heap, hints dropped
    cal.push(40, 6, 5, 0);
    expect(cal.length).toBe(6);
    expect(take(cal, 0)).toEqual([]);
    expect(take(cal, 1)).toEqual([{ seq: 5, pos: 2, mark: 0 }]);
    expect(take(cal, 2)).toEqual([]);
    expect(take(cal, 3).map((e) => e.seq)).toEqual([2, 7, 9]);
    for (let s = 4; s < 40; s++) expect(take(cal, s)).toEqual([]);
    // Step 40 is in the ring now: one event there, one from the far heap, merged by seq.
    cal.push(40, 3, 7, 2);
    expect(take(cal, 40)).toEqual([
      { seq: 1, pos: -1, mark: -1 },
      { seq: 3, pos: 7, mark: 2 },
      { seq: 6, pos: -1, mark: -1 },
    ]);
    expect(cal.length).toBe(0);
  });

  it('refuses an event before the step taken last, and a step taken over pending events', () => {
    const cal = new DecodeCalendar(4);
    cal.push(2, 0, 0, 0);
    expect(() => cal.takeDue(3)).toThrow(InvariantViolation);
    const c2 = new DecodeCalendar(4);
    c2.takeDue(0);
    c2.takeDue(1);
    expect(() => c2.push(0, 1, 0, 0)).toThrow(InvariantViolation);
    const c3 = new DecodeCalendar(4);
    c3.push(100, 0, 0, 0);
    expect(() => c3.takeDue(101)).toThrow(InvariantViolation);
  });

  it('grows a bucket past its room, keeping every event', () => {
    const cal = new DecodeCalendar(4);
    for (let i = 0; i < 100; i++) cal.push(i % 3, 100 - i, i, 0);
    const seen: number[] = [];
    for (let s = 0; s < 3; s++) {
      const got = take(cal, s);
      const seqs = got.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      for (const e of got) expect(e.pos).toBe(100 - e.seq);
      seen.push(...seqs);
    }
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('takes the same events in the same order as a (step, seq) heap, for any pushes, takes and clears', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(opArb, { maxLength: 300 }), (span, ops) => {
        const cal = new DecodeCalendar(span);
        const heap = new DecodeEventHeap();
        const hints = new Map<number, { pos: number; mark: number; far: boolean }>();
        // `now`: the step the next take is at; `taken`: the step taken last (the ring's start).
        let now = 0;
        let taken = 0;
        ops.forEach((op, i) => {
          if (op.t === 'push') {
            const seq = op.seq * 1000 + i;
            const step = now + op.ahead;
            cal.push(step, seq, op.pos, op.mark);
            heap.push(step, seq);
            hints.set(seq, { pos: op.pos, mark: op.mark, far: step - taken >= cal.horizon });
          } else if (op.t === 'clear') {
            cal.clear();
            heap.clear();
          } else {
            const want: number[] = [];
            while (heap.size > 0 && heap.peekStep() === now) {
              want.push(heap.peekSeq());
              heap.pop();
            }
            const got = take(cal, now);
            taken = now;
            expect(got.map((e) => e.seq)).toEqual(want);
            for (const e of got) {
              const h = hints.get(e.seq)!;
              expect(e.pos).toBe(h.far ? -1 : h.pos);
              expect(e.mark).toBe(h.far ? -1 : h.mark);
            }
            if (op.t === 'advance') now++;
          }
          expect(cal.length).toBe(heap.size);
        });
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
