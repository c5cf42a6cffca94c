import { ArrayRequestSource, RequestPart } from '@blis/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SimulationConfigInput, type SimulationResult, simulate } from '../src/index.js';
import { LLAMA, Recorder, onePlusOne, pd2Latency, req, us } from './pd-example-helpers.js';

// The handoff from prefill to decode pod: the reference's PD-2 (TTFT and E2E across it, causal
// variant; docs: /work/shared/reference/blis-semantics.md §2.10) and deadlines that pass during
// it. Hand arithmetic is in the comments; times are µs unless named _ms.

describe('PD-2: TTFT and E2E across the handoff (causal: the transfer starts when the last prefill step ends)', () => {
  // Prefill step 0 → 30,000 on instance_0; transfer 30,000 → 35,335 (PD-1); decode part
  // scheduled at 35,335 on instance_1, 3 decode steps of 8000 (4 outputs: the first decode step
  // gives the first token) → 59,335. BLIS as coded starts the transfer at the prefill step's
  // start and would report TTFT 13,335 and E2E 29,335.
  const rec = new Recorder();
  let r: SimulationResult;
  beforeAll(() => {
    r = simulate(onePlusOne({ decider: 'always' }), {
      latency: pd2Latency(),
      source: new ArrayRequestSource([req(0, 0, 1000, 4, { id: 'chat-1' })]),
      observer: rec,
    });
  });

  it('parent TTFT 43,335 = 35,335 + 8000; E2E 59,335 = 35,335 + 3 × 8000; ITL 8000; scheduling delay 0', () => {
    expect(r.completed_requests).toBe(1);
    const q = r.requests!;
    expect(q).toHaveLength(1);
    expect(q[0]).toMatchObject({ request_id: 'chat-1', input_tokens: 1000, output_tokens: 4, handled_by: 'instance_1', scheduling_delay_ms: 0, cache_hit_blocks: 0, preemptions: 0 });
    expect(us(q[0].ttft_ms)).toBe(43_335);
    expect(us(q[0].e2e_ms)).toBe(59_335);
    expect(us(q[0].itl_ms)).toBe(8000);
    expect(us(r.ttft_mean_ms)).toBe(43_335);
    expect(us(r.e2e_mean_ms)).toBe(59_335);
    expect(us(r.itl_mean_ms)).toBe(8000);
    expect(r.scheduling_delay_p99_ms).toBe(0);
    expect(us(r.pd!.parent_ttft.mean_ms)).toBe(43_335);
    expect(r.vllm_estimated_duration_s).toBe(0.059335);
  });

  it('the handoff happens at the step ends: prefill at 0 on instance_0, transfer 30,000 → 35,335, decode at 35,335 on instance_1', () => {
    expect(rec.scheduled).toEqual([
      { id: 'chat-1_prefill', part: RequestPart.Prefill, now: 0, instance: 0 },
      { id: 'chat-1_decode', part: RequestPart.Decode, now: 35_335, instance: 1 },
    ]);
    expect(rec.transfers).toEqual([{ requestId: 'chat-1', startUs: 30_000, durationUs: 5335, numKVBlocks: 63, prefillInstance: 0, decodeInstance: 1 }]);
    expect(rec.completed).toEqual([{ id: 'chat-1', now: 59_335, e2e: 59_335 }]);
    expect(rec.decisions).toEqual([{ id: 'chat-1', disaggregate: true, decodeInstance: 1 }]);
  });

  it('reports the parent once: its id only, its tokens once, one completion; each pod ran one part', () => {
    for (const q of r.requests!) expect(q.request_id).not.toMatch(/_(prefill|decode)$/);
    expect(r.total_input_tokens).toBe(1000);
    expect(r.total_output_tokens).toBe(4);
    expect(r.injected_requests).toBe(1);
    expect(r.instances.map((b) => [b.instance_id, b.pool, b.completed_requests])).toEqual([
      ['instance_0', 'prefill', 1],
      ['instance_1', 'decode', 1],
    ]);
    expect(r.target_distribution).toEqual({ instance_0: 1, instance_1: 1 });
    expect(r.pd).toMatchObject({ disaggregated_requests: 1, local_requests: 0, dropped_at_decode_kv: 0, transfers_initiated: 1, transfers_completed: 1, transfer_bound_requests: 0 });
    expect(r.pd!.pools).toEqual({ prefill: ['instance_0'], decode: ['instance_1'], shared: [], unassigned: [] });
  });
});

describe('deadlines across the handoff', () => {
  // PD-2 latency, one 321-token request (21 blocks) at 0.5 GB/s: prefill 0 → 30,000, transfer
  // 30,000 → 30,000 + ceil(50 + 21 × 16 × 131,072 / 500) = 30,000 + ceil(88,130.384) = 118,131;
  // then 1 decode step (2 outputs) → 126,131.
  const run = (pd: SimulationConfigInput['pd'], numInstances: number, deadlineUs: number) => {
    const rec = new Recorder();
    const r = simulate(
      { numInstances, model: LLAMA, tp: 1, totalKVBlocks: 1000, checkInvariants: true, includeRequests: true, pd: { decider: 'always', transferBandwidthGBps: 0.5, ...pd } },
      { latency: pd2Latency(), source: new ArrayRequestSource([req(0, 0, 321, 2, { deadlineUs })]), observer: rec },
    );
    return { r, rec };
  };
  const topologies = [
    ['1 prefill + 1 decode pod', { prefillInstances: 1, decodeInstances: 1 }, 2],
    ['one shared pod', { prefillDecodeInstances: 1 }, 1],
  ] as const;

  for (const [name, pd, n] of topologies) {
    it(`${name}: a deadline passing mid-transfer times the parent out when its KV arrives`, () => {
      // On a shared pod the decode part takes the slot its prefill part left, with the same
      // deadline: the prefill part's deadline event (at 60,000) must not end the decode part
      // while its KV is moving (it did, and the transfer's end then found no parent).
      const { r, rec } = run(pd, n, 60_000);
      expect(r.timed_out_requests).toBe(1);
      expect(r.completed_requests).toBe(0);
      expect(rec.dropped).toEqual([{ id: '0', now: 118_131, reason: 'timed_out' }]);
      expect(r.pd).toMatchObject({ disaggregated_requests: 1, transfers_initiated: 1, transfers_completed: 1 });
      expect(r.still_running + r.still_queued).toBe(0);
    });

    it(`${name}: a deadline after the decode completes the parent`, () => {
      const { r } = run(pd, n, 126_132);
      expect(r.completed_requests).toBe(1);
      expect(us(r.requests![0].e2e_ms)).toBe(126_131);
    });
  }
});
