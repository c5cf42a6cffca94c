import { ArrayRequestSource, RequestPart } from '@blis/engine';
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { Recorder, byId, onePlusOne, pd2Latency, req, us } from './pd-example-helpers.js';

// The prefix-threshold decider at 61 / 62 cached blocks on the chosen decode pod (docs:
// /work/shared/reference/blis-semantics.md §2.10), and a prompt with no KV to move.

describe('prefix-threshold decides on the blocks cached on the chosen decode pod', () => {
  // Request 0 (1000 tokens, 62 full blocks of group A) is split: nothing is cached anywhere.
  // Its KV lands on the decode pod and stays in its prefix cache after it completes (59,335).
  // A later 1000-token request sharing k leading blocks of A then finds k blocks there:
  // nonCached = 1000 − 16k, split iff > threshold. Live cache signal (cacheSignalDelayUs 0).
  const cases = [
    { shared: 61, threshold: 16, split: true }, // 1000 − 976 = 24 > 16
    { shared: 62, threshold: 16, split: false }, // 1000 − 992 = 8, not > 16
    { shared: 61, threshold: 24, split: false }, // 24, not > 24 (strict)
    { shared: 61, threshold: 23, split: true },
    { shared: 0, threshold: 16, split: true }, // nothing shared: 1000 > 16
  ];
  for (const c of cases) {
    it(`${c.shared} cached blocks, threshold ${c.threshold}: ${c.split ? 'disaggregated' : 'local'}`, () => {
      const rec = new Recorder();
      const r = simulate(onePlusOne({ decider: 'prefix-threshold', prefixThreshold: c.threshold }, { cacheSignalDelayUs: 0 }), {
        latency: pd2Latency(),
        source: new ArrayRequestSource([req(0, 0, 1000, 4, { group: 'A', shared: 62 }), req(1, 1_000_000, 1000, 4, { group: 'A', shared: c.shared })]),
        observer: rec,
      });
      expect(rec.decisions).toEqual([
        { id: '0', disaggregate: true, decodeInstance: 1 },
        { id: '1', disaggregate: c.split, decodeInstance: 1 },
      ]);
      expect(r.pd!.disaggregated_requests).toBe(c.split ? 2 : 1);
      expect(r.pd!.local_requests).toBe(c.split ? 0 : 1);
      expect(r.completed_requests).toBe(2);
      const q1 = byId(r).get('1')!;
      if (c.split) {
        // Prefilled again on the prefill pod, which also caches request 0's prompt.
        expect(rec.scheduled.filter((s) => s.id.startsWith('1')).map((s) => [s.part, s.instance])).toEqual([
          [RequestPart.Prefill, 0],
          [RequestPart.Decode, 1],
        ]);
        expect(q1.cache_hit_blocks).toBe(c.shared);
      } else {
        // Whole on the decode pod: its cached prefix is reused, one 30,000 µs step prefills the
        // rest, then 3 decode steps: TTFT 30 ms, E2E 54 ms.
        expect(rec.scheduled.filter((s) => s.id.startsWith('1'))).toEqual([{ id: '1', part: RequestPart.Whole, now: 1_000_000, instance: 1 }]);
        expect(q1.cache_hit_blocks).toBe(c.shared);
        expect(us(q1.ttft_ms)).toBe(30_000);
        expect(us(q1.e2e_ms)).toBe(54_000);
      }
    });
  }

  it('a prompt of 0 tokens stays whole even under always (no KV to move)', () => {
    const rec = new Recorder();
    const r = simulate(onePlusOne({ decider: 'always' }), { latency: pd2Latency(), source: new ArrayRequestSource([req(0, 0, 0, 3)]), observer: rec });
    expect(r.completed_requests).toBe(1);
    expect(r.pd!.local_requests).toBe(1);
    expect(r.pd!.transfers_initiated).toBe(0);
    expect(rec.scheduled.map((s) => [s.part, s.instance])).toEqual([[RequestPart.Whole, 1]]);
  });
});
