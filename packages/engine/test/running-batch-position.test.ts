import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SimRequest } from '../src/request.js';
import { RunningBatch } from '../src/running-batch.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// RunningBatch.positionNear, bulk decode's way back from a request's admission seq to its
// position: from the position and removal count noted when its event was scheduled.

function fakeRequest(index: number): SimRequest {
  return { progress: 0, inputTokens: 1, finalProgress: 2, kvOwner: index, blockHashes: [], spec: { index } } as unknown as SimRequest;
}

type Op = { t: 'admit' } | { t: 'removeAt'; at: number } | { t: 'removeSorted'; picks: number[] } | { t: 'note'; at: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('admit' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('removeAt' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('removeSorted' as const), picks: fc.array(fc.nat(), { maxLength: 5 }) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('note' as const), at: fc.nat() }) },
);

describe('RunningBatch.positionNear', () => {
  it('finds a request without a search while nothing ahead of it left, and after removals (hand-written example)', () => {
    const run = new RunningBatch(4);
    for (let i = 0; i < 6; i++) run.push(fakeRequest(i), 0);
    // Seq 4 noted at position 4 with no removals yet.
    expect(run.positionNear(4, 4, 0, 0)).toBe(4);
    run.removeSorted(Int32Array.from([1, 5]), 2); // one removal ahead of it, one behind
    expect(run.removed).toBe(2);
    expect(run.positionNear(4, 4, 0, 0)).toBe(3);
    run.removeAt(0);
    expect(run.positionNear(4, 4, 0, 0)).toBe(2);
    expect(Array.from(run.seq.subarray(0, run.length))).toEqual([2, 3, 4]);
  });

  it('never reads past the batch’s end, where removals leave stale, smaller seqs', () => {
    const run = new RunningBatch(4);
    for (let i = 0; i < 3; i++) run.push(fakeRequest(i), 0);
    run.removeSorted(Int32Array.from([0, 1]), 2);
    // The arrays now read [2, 1, 2]: position 1 is stale. Seq 2 was noted at position 2.
    expect(run.seq[1]).toBe(1);
    expect(run.positionNear(2, 2, 0, 0)).toBe(0);
  });

  it('agrees with the binary search for every noted request still in the batch', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 200 }), (ops) => {
        const run = new RunningBatch(2);
        let admitted = 0;
        const notes = new Map<number, { pos: number; mark: number }>();
        for (const op of ops) {
          if (op.t === 'admit') run.push(fakeRequest(admitted++), 0);
          else if (run.length === 0) continue;
          else if (op.t === 'removeAt') run.removeAt(op.at % run.length);
          else if (op.t === 'removeSorted') {
            const gone = [...new Set(op.picks.map((p) => p % run.length))].sort((a, b) => a - b);
            if (gone.length > 0) run.removeSorted(Int32Array.from(gone), gone.length);
          } else {
            const at = op.at % run.length;
            notes.set(run.seq[at], { pos: at, mark: run.removed });
          }
          // Every noted request still here is found, in seq order, each after the one before.
          let lo = 0;
          for (const [seq, note] of [...notes].sort((a, b) => a[0] - b[0])) {
            const here = Array.from(run.seq.subarray(0, run.length)).indexOf(seq);
            if (here < 0) continue;
            const p = run.positionNear(seq, note.pos, note.mark, lo);
            expect(p).toBe(here);
            expect(p).toBe(run.positionOf(seq));
            lo = p + 1;
          }
        }
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});

describe('RunningBatch columns', () => {
  // The thirteen columns are carved from one buffer (running-batch.ts): they must stay separate
  // arrays, and growing the batch must keep every one's values.
  it('keeps the values of each column apart, across growth', () => {
    const run = new RunningBatch(2);
    const n = 11;
    for (let i = 0; i < n; i++) {
      const r = { progress: 10 * i, inputTokens: 20 * i + 1, finalProgress: 30 * i + 2, kvOwner: 40 * i + 3, blockHashes: new Array(i % 5), spec: { index: 50 * i + 4 } } as unknown as SimRequest;
      run.push(r, 60 * i + 5);
      run.kvRoom[i] = 70 * i + 6;
      run.kvDeferred[i] = 80 * i + 7;
      run.itlSum[i] = 90 * i + 0.5;
      run.baseStep[i] = 100 * i + 8;
      run.baseItl[i] = 110 * i + 0.25;
    }
    const col = (a: ArrayLike<number>) => Array.from(a).slice(0, n);
    const expected = (f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
    expect(col(run.progress)).toEqual(expected((i) => 10 * i));
    expect(col(run.inputTokens)).toEqual(expected((i) => 20 * i + 1));
    expect(col(run.finalProgress)).toEqual(expected((i) => 30 * i + 2));
    expect(col(run.kvOwner)).toEqual(expected((i) => 40 * i + 3));
    expect(col(run.hashCount)).toEqual(expected((i) => i % 5));
    expect(col(run.keys)).toEqual(expected((i) => 50 * i + 4));
    expect(col(run.granted)).toEqual(expected((i) => 60 * i + 5));
    expect(col(run.kvRoom)).toEqual(expected((i) => 70 * i + 6));
    expect(col(run.kvDeferred)).toEqual(expected((i) => 80 * i + 7));
    expect(col(run.itlSum)).toEqual(expected((i) => 90 * i + 0.5));
    expect(col(run.seq)).toEqual(expected((i) => i));
    expect(col(run.baseStep)).toEqual(expected((i) => 100 * i + 8));
    expect(col(run.baseItl)).toEqual(expected((i) => 110 * i + 0.25));
    expect(run.progress.length).toBeGreaterThanOrEqual(n);
  });
});

describe('RunningBatch removals', () => {
  // Removals move every column's values down over the gaps, one by one for short stretches and
  // with copyWithin for long ones (running-batch.ts): both must keep each survivor's row whole.
  it('keeps every survivor’s thirteen values, in order, for gaps short and long', () => {
    const columns = (run: RunningBatch) => [run.progress, run.inputTokens, run.finalProgress, run.granted, run.kvRoom, run.kvDeferred, run.itlSum, run.kvOwner, run.hashCount, run.keys, run.seq, run.baseStep, run.baseItl];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 160 }), fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (n, picks, one) => {
        const run = new RunningBatch(4);
        for (let i = 0; i < n; i++) {
          run.push({ progress: i, inputTokens: i + 1, finalProgress: i + 2, kvOwner: i + 3, blockHashes: new Array(i % 7), spec: { index: i + 4 } } as unknown as SimRequest, i + 5);
          run.kvRoom[i] = i + 6;
          run.kvDeferred[i] = i + 7;
          run.itlSum[i] = i + 0.5;
          run.baseStep[i] = i + 8;
          run.baseItl[i] = i + 0.25;
        }
        const rows = Array.from({ length: n }, (_, i) => columns(run).map((c) => c[i]));
        const gone = [...new Set(picks.map((p) => p % n))].sort((a, b) => a - b);
        if (one && gone.length > 0) run.removeAt(gone[0]);
        else if (gone.length > 0) run.removeSorted(Int32Array.from(gone), gone.length);
        const removed = new Set(one ? gone.slice(0, 1) : gone);
        const kept = rows.filter((_, i) => !removed.has(i));
        expect(run.length).toBe(kept.length);
        expect(Array.from({ length: run.length }, (_, i) => columns(run).map((c) => c[i]))).toEqual(kept);
        expect(run.reqs.map((r) => r.spec.index)).toEqual(kept.map((row) => row[9]));
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
