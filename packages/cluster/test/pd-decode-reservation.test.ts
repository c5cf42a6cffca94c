import { ArrayRequestSource } from '@blis/engine';
import type { DecisionObserver } from '@blis/trace';
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { Recorder, onePlusOne, pd2Latency, req, us } from './pd-example-helpers.js';

// The decode pod's KV reservation for a transferred prompt: parents dropped there, and queued
// decode parts holding transferred KV that must never wedge their pod. Times are µs.

describe('dropped at the decode pod KV reservation', () => {
  it('a busy decode pod: the parent counts in dropped_unservable and pd.dropped_at_decode_kv, not as completed', () => {
    // 100 blocks per pod. Both 1000-token prompts arrive at 0; the prefill pod holds one prompt
    // at a time (63 + 63 > 100): request 0 prefills 0 → 30,000, request 1 30,000 → 60,000.
    // Request 0's decode part holds 63 blocks (then up to ceil(1099/16) = 69) while it decodes
    // 99 tokens from 35,335 to 827,335. At 60,000 request 1's reservation of 63 blocks finds at
    // most 37 free: dropped at the transfer's start, with a zero-length transfer.
    const rec = new Recorder();
    const r = simulate(onePlusOne({ decider: 'always' }, { totalKVBlocks: 100 }), {
      latency: pd2Latency(),
      source: new ArrayRequestSource([req(0, 0, 1000, 100), req(1, 0, 1000, 4)]),
      observer: rec,
    });
    expect(r.completed_requests).toBe(1);
    expect(r.dropped_unservable).toBe(1);
    expect(r.still_queued + r.still_running + r.timed_out_requests + r.rejected_requests).toBe(0);
    expect(r.pd).toMatchObject({ disaggregated_requests: 1, dropped_at_decode_kv: 1, transfers_initiated: 2, transfers_completed: 2, local_requests: 0 });
    expect(r.requests!.map((q) => q.request_id)).toEqual(['0']);
    expect(us(r.requests![0].e2e_ms)).toBe(35_335 + 99 * 8000);
    expect(rec.dropped).toEqual([{ id: '1', now: 60_000, reason: 'unservable' }]);
    // Only request 0's transfer reached the decode pod; only its TTFT is a parent TTFT.
    expect(rec.transfers.map((t) => t.requestId)).toEqual(['0']);
    expect(r.pd!.kv_transfer_duration.mean_ms).toBe(5.335);
    expect(us(r.pd!.parent_ttft.mean_ms)).toBe(43_335);
  });

  it('a prompt plus output the decode pod could never hold: dropped at the reservation', () => {
    // 63 blocks hold 1008 tokens: the 1000-token prompt prefills, but the decode part would reach
    // 1000 + 19 = 1019 tokens (20 outputs) and could never finish.
    const r = simulate(onePlusOne({ decider: 'always' }, { totalKVBlocks: 63 }), { latency: pd2Latency(), source: new ArrayRequestSource([req(0, 0, 1000, 20), req(1, 0, 900, 4)]) });
    expect(r.completed_requests).toBe(1);
    expect(r.dropped_unservable).toBe(1);
    expect(r.pd).toMatchObject({ disaggregated_requests: 1, dropped_at_decode_kv: 1, transfers_initiated: 2, transfers_completed: 2 });
    expect(r.requests!.map((q) => q.request_id)).toEqual(['1']);
  });
});

describe('queued decode parts holding transferred KV never wedge their pod', () => {
  // A decode part holds its prompt's KV from the transfer's start until it runs. These caches
  // are small enough that such reservations fill them: without a way out, nothing could run
  // and the pod stepped for ever (BLIS's batch formation stops at the first failed allocation
  // the same way). The youngest reservation now gives its KV back and its part is prefilled
  // again on the decode pod, as a preempted decode part is.
  const guard = (): DecisionObserver => {
    let steps = 0;
    return {
      onStep() {
        if (++steps > 5000) throw new Error('over 5000 steps for 3 requests: the pod is wedged');
      },
    };
  };

  it('two reservations filling the cache, each needing one more block: the younger yields', () => {
    // 4 blocks per pod. A and B (32 tokens, 2 outputs) prefill together 0 → 30,000 and move in
    // ceil(50 + 2 × 16 × 131,072 / 25,000) = 218 µs: both reserve 2 blocks, the cache is full,
    // and each decode token (the 33rd) needs a third block. At 30,218 B gives its KV back; A
    // decodes 30,218 → 38,218 (TTFT = E2E = 38,218). B then prefills again on the decode pod
    // 38,218 → 68,218 (its prefix evicted by A's last block) and decodes → 76,218.
    const r = simulate(onePlusOne({ decider: 'always' }, { totalKVBlocks: 4 }), {
      latency: pd2Latency(),
      source: new ArrayRequestSource([req(0, 0, 32, 2, { id: 'A' }), req(1, 0, 32, 2, { id: 'B' })]),
      observer: guard(),
    });
    expect(r.completed_requests).toBe(2);
    expect(r.preemption_count).toBe(1);
    expect(r.requests!.map((q) => [q.request_id, us(q.ttft_ms), us(q.e2e_ms), q.preemptions])).toEqual([
      ['A', 38_218, 38_218, 0],
      ['B', 68_218, 76_218, 1],
    ]);
    expect(r.pd).toMatchObject({ disaggregated_requests: 2, dropped_at_decode_kv: 0, transfers_initiated: 2, transfers_completed: 2 });
  });

  it('the only running request does not evict itself while reservations hold the KV it needs', () => {
    // 8 blocks, one sequence at a time on the decode pod. L (16 tokens, 60 outputs) stays whole
    // on the decode pod: prefill 0 → 30,000, then 59 decode steps of 8000 → 502,000, needing 5
    // blocks in all. D1 and D2 (40 tokens, 2 outputs) are split; their KV (3 blocks each)
    // arrives at 30,302 and fills the cache. At 158,000 L needs its third block (token 33):
    // instead of evicting itself (and, re-admitted first, doing so for ever), D2 gives its KV
    // back. D1 decodes after L, 502,000 → 510,000; D2 prefills again 510,000 → 540,000 and
    // decodes → 548,000.
    const byId = { name: 'by-id', decide: (q: { id: string }) => ({ disaggregate: q.id !== 'L', reason: 'test' }) };
    const r = simulate(onePlusOne({ decider: 'always' }, { totalKVBlocks: 8, maxNumSeqs: 1 }), {
      latency: pd2Latency(),
      decider: byId,
      source: new ArrayRequestSource([req(0, 0, 16, 60, { id: 'L' }), req(1, 0, 40, 2, { id: 'D1' }), req(2, 0, 40, 2, { id: 'D2' })]),
      observer: guard(),
    });
    expect(r.completed_requests).toBe(3);
    expect(r.requests!.map((q) => [q.request_id, us(q.ttft_ms), us(q.e2e_ms), q.preemptions])).toEqual([
      ['L', 30_000, 502_000, 0],
      ['D1', 510_000, 510_000, 0],
      ['D2', 540_000, 548_000, 1],
    ]);
    expect(r.pd).toMatchObject({ disaggregated_requests: 2, local_requests: 1, transfers_initiated: 2, transfers_completed: 2 });
  });
});
