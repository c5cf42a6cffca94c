import { ArrayRequestSource, RequestPart, type RequestSpec, type SimRequest, makeRequestSpec } from '@blis/engine';
import { type LatencyModel, type StepBatch, parseModelConfig } from '@blis/latency';
import { kvBytesPerTokenPerRank, modelConfigRaw } from '@blis/latency/internal';
import type { RoutingDecision } from '@blis/policies';
import type { DecisionObserver, PdTransferRecord } from '@blis/trace';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SimulationConfigInput, type SimulationResult, prepareSimulation, runPrepared, simulate } from '../src/index.js';
import { KvTransferLink, transferDurationUs } from '../src/pd/kv-transfer.js';
import { hashesFor } from './helpers.js';

// Prefill/decode disaggregation on worked examples: the reference's PD-1 (transfer durations),
// PD-2 (TTFT and E2E across the handoff, causal variant) and the prefix-threshold decider at
// 61 / 62 cached blocks (docs: /work/shared/reference/blis-semantics.md §2.10), then what a
// parent reports, drops at the decode pod's KV reservation, `never` on shared pods, and the
// per-pool overrides. Hand arithmetic is in the comments; times are µs unless named _ms.

const LLAMA = 'meta-llama/llama-3.1-8b-instruct';

/**
 * PD-2's latency model: any step with a prefill in it takes 30,000 µs, a decode-only step
 * `decodeBase + decodePerSeq × sequences` (8000 for one sequence by default); no alpha queueing
 * delay, no output-token time, no post-decode overhead.
 */
function pd2Latency(decodeBase = 8000, decodePerSeq = 0): LatencyModel {
  return {
    kind: 'pd2',
    stepTime: (b: StepBatch) => (b.prefillCount > 0 ? 30_000 : decodeBase + decodePerSeq * b.decodeCount),
    queueingTime: () => 0,
    outputTokenTime: () => 0,
    postDecodeFixedOverhead: () => 0,
  };
}

/** A request with prompt hashes: `shared` leading blocks of group `group`, the rest its own. */
function req(index: number, arrivalUs: number, inputTokens: number, outputTokens: number, extra: Partial<RequestSpec> & { group?: string; shared?: number } = {}): RequestSpec {
  const { group = 'g', shared = 0, ...rest } = extra;
  return makeRequestSpec({ index, arrivalUs, inputTokens, outputTokens, blockHashes: hashesFor(inputTokens, group, shared, `u${index}`), ...rest });
}

/** 1 prefill pod (instance_0) + 1 decode pod (instance_1), TP 1, llama-3.1-8b's KV shape, PD-2 latency. */
function onePlusOne(pd: SimulationConfigInput['pd'], extra: Partial<SimulationConfigInput> = {}): SimulationConfigInput {
  return { numInstances: 2, model: LLAMA, tp: 1, totalKVBlocks: 1000, checkInvariants: true, includeRequests: true, ...extra, pd: { prefillInstances: 1, decodeInstances: 1, ...pd } };
}

/** Everything the P/D hooks report, in order. */
class Recorder implements DecisionObserver {
  readonly scheduled: { id: string; part: number; now: number; instance: number }[] = [];
  readonly transfers: PdTransferRecord[] = [];
  readonly transferSeenAt: number[] = [];
  readonly completed: { id: string; now: number; e2e: number }[] = [];
  readonly dropped: { id: string; now: number; reason: string }[] = [];
  readonly decisions: { id: string; disaggregate: boolean; decodeInstance: number }[] = [];
  readonly prefillRouting: { id: string; decision: RoutingDecision; poolSize: number }[] = [];
  readonly routing: { id: string; decision: RoutingDecision; poolSize: number }[] = [];
  readonly steps: { now: number; stepTime: number; instance: number }[] = [];

  onScheduled(r: SimRequest, now: number, instance: number) {
    this.scheduled.push({ id: r.spec.id, part: r.part, now, instance });
  }
  onPdTransfer(rec: PdTransferRecord, now: number) {
    this.transfers.push(rec);
    this.transferSeenAt.push(now);
  }
  onCompleted(r: SimRequest, now: number, e2e: number) {
    this.completed.push({ id: r.spec.id, now, e2e });
  }
  onDropped(r: SimRequest, now: number, reason: string) {
    this.dropped.push({ id: r.spec.id, now, reason });
  }
  onDisaggregation(r: SimRequest, d: { disaggregate: boolean }, decodeInstance: number) {
    this.decisions.push({ id: r.spec.id, disaggregate: d.disaggregate, decodeInstance });
  }
  onPrefillRouting(r: SimRequest, decision: RoutingDecision, state: { instances: readonly unknown[] }) {
    this.prefillRouting.push({ id: r.spec.id, decision, poolSize: state.instances.length });
  }
  onRouting(r: SimRequest, decision: RoutingDecision, state: { instances: readonly unknown[] }) {
    this.routing.push({ id: r.spec.id, decision, poolSize: state.instances.length });
  }
  onStep(now: number, stepTime: number, _b: StepBatch, instance: number) {
    this.steps.push({ now, stepTime, instance });
  }
}

const byId = (r: SimulationResult) => new Map((r.requests ?? []).map((q) => [q.request_id, q]));
const us = (ms: number) => Math.round(ms * 1000);

/** The result JSON without what only a P/D run has: the `pd` section and each instance's `pool`. */
function withoutPd(r: SimulationResult): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) {
    if (k === 'pd') continue;
    out[k] = k === 'instances' ? r.instances.map(({ pool: _pool, ...b }) => b) : v;
  }
  return out;
}

describe('PD-1: KV transfer duration', () => {
  it('160 tokens, B = 16, 512 B/token, 10 GB/s, base 0: 9 µs alone, 17 µs as the second with contention', () => {
    // 10 blocks × 16 tokens × 512 B = 81,920 B; 10 GB/s = 10,000 B/µs.
    expect(transferDurationUs(81_920, 10_000, 0)).toBe(9); // ceil(8.192)
    expect(transferDurationUs(81_920, 5_000, 0)).toBe(17); // ceil(16.384)
    const link = new KvTransferLink({ bytesPerBlock: 16 * 512, bandwidthGBps: 10, baseLatencyMs: 0, contention: true });
    expect(link.start(10)).toBe(9); // 1 active: the whole 10,000 B/µs
    expect(link.start(10)).toBe(17); // 2 active: 5,000 B/µs each, fixed for the transfer's life
    expect(link.peak).toBe(2);
    expect(link.meanQueueDepth).toBe(1.5); // (1 + 2) / 2 starts
    link.finish();
    link.finish();
    expect(link.active).toBe(0);
    expect(link.start(10)).toBe(9); // alone again
    expect(link.meanQueueDepth).toBeCloseTo(4 / 3, 12); // (1 + 2 + 1) / 3
  });

  it('without contention every transfer gets the whole bandwidth and the link keeps no counts', () => {
    const link = new KvTransferLink({ bytesPerBlock: 16 * 512, bandwidthGBps: 10, baseLatencyMs: 0, contention: false });
    expect([link.start(10), link.start(10), link.start(10)]).toEqual([9, 9, 9]);
    expect(link.active).toBe(0);
    expect(link.peak).toBe(0);
    expect(link.meanQueueDepth).toBe(0);
  });

  it('a transfer takes at least 1 µs', () => {
    expect(transferDurationUs(0, 25_000, 0)).toBe(1);
    expect(transferDurationUs(1, 25_000, 0)).toBe(1); // ceil(0.00004)
    expect(new KvTransferLink({ bytesPerBlock: 0, bandwidthGBps: 25, baseLatencyMs: 0, contention: false }).start(63)).toBe(1);
  });

  it('llama-3.1-8b holds 131,072 KV bytes per token at TP 1 (32 layers × 2 × 8 KV heads × 128 × 2 B), 65,536 per rank at TP 2', () => {
    const arch = parseModelConfig(modelConfigRaw(LLAMA));
    expect(kvBytesPerTokenPerRank(arch.kvShape, 1)).toBe(131_072);
    expect(kvBytesPerTokenPerRank(arch.kvShape, 2)).toBe(65_536);
  });

  it('llama-3.1-8b, 1000 tokens, BLIS defaults: 5335 µs; 10,620 µs as the second concurrent with contention; 2693 µs at prefill TP 2', () => {
    // 63 blocks × 16 × 131,072 B = 132,120,576 B; 25 GB/s = 25,000 B/µs; base 0.05 ms = 50 µs.
    const blocks = Math.ceil(1000 / 16);
    expect(blocks).toBe(63);
    const tp1 = { bytesPerBlock: 16 * 131_072, bandwidthGBps: 25, baseLatencyMs: 0.05 };
    expect(new KvTransferLink({ ...tp1, contention: false }).start(blocks)).toBe(5335); // ceil(50 + 5284.823)
    const contended = new KvTransferLink({ ...tp1, contention: true });
    expect([contended.start(blocks), contended.start(blocks)]).toEqual([5335, 10_620]); // ceil(50 + 10,569.646)
    expect(new KvTransferLink({ ...tp1, bytesPerBlock: 16 * 65_536, contention: false }).start(blocks)).toBe(2693); // ceil(50 + 2642.41)
  });

  it('end to end: one 1000-token request moves in 5335 µs; in 2693 µs at TP 2', () => {
    const one = () => new ArrayRequestSource([req(0, 0, 1000, 4)]);
    const r = simulate(onePlusOne({ decider: 'always' }), { latency: pd2Latency(), source: one() });
    expect(r.pd!.kv_transfer_duration.mean_ms).toBe(5.335);
    expect(r.pd!.transfers_initiated).toBe(1);
    // The global TP sizes the transfer when the prefill pool has no TP of its own.
    const tp2 = simulate(onePlusOne({ decider: 'always' }, { tp: 2 }), { latency: pd2Latency(), source: one() });
    expect(tp2.pd!.kv_transfer_duration.mean_ms).toBe(2.693);
  });

  it('end to end with the catalogue model: pd.prefill.tp 2 halves the bytes (2693 µs); pd.decode.tp 2 does not (transfer bytes use prefill TP)', () => {
    const base = { numInstances: 2, model: LLAMA, totalKVBlocks: 1000, checkInvariants: true } as const;
    const run = (pd: SimulationConfigInput['pd']) =>
      simulate({ ...base, pd: { prefillInstances: 1, decodeInstances: 1, decider: 'always', ...pd } }, { source: new ArrayRequestSource([req(0, 0, 1000, 4)]) });
    expect(run({}).pd!.kv_transfer_duration.mean_ms).toBe(5.335);
    expect(run({ prefill: { tp: 2 } }).pd!.kv_transfer_duration.mean_ms).toBe(2.693);
    expect(run({ decode: { tp: 2 } }).pd!.kv_transfer_duration.mean_ms).toBe(5.335);
    // 10 GB/s and 1 ms base (the plan's figures): ceil(1000 + 132,120,576 / 10,000) = 14,213 µs.
    expect(run({ transferBandwidthGBps: 10, transferBaseLatencyMs: 1 }).pd!.kv_transfer_duration.mean_ms).toBe(14.213);
  });

  it('end to end with contention: two prompts done in one prefill step move in 5335 and 10,620 µs', () => {
    // One prefill step admits both 1000-token prompts (budget 2048) and ends at 30,000: both
    // transfers start then, the second sharing the bandwidth with the first.
    const rec = new Recorder();
    const r = simulate(onePlusOne({ decider: 'always', transferContention: true }), {
      latency: pd2Latency(),
      source: new ArrayRequestSource([req(0, 0, 1000, 4), req(1, 0, 1000, 4)]),
      observer: rec,
    });
    expect(rec.transfers.map((t) => [t.requestId, t.startUs, t.durationUs])).toEqual([
      ['0', 30_000, 5335],
      ['1', 30_000, 10_620],
    ]);
    expect(rec.transferSeenAt).toEqual([35_335, 40_620]);
    expect(r.pd!.peak_concurrent_transfers).toBe(2);
    expect(r.pd!.mean_transfer_queue_depth).toBe(1.5);
    expect(r.pd!.kv_transfer_duration.mean_ms).toBeCloseTo((5.335 + 10.62) / 2, 12);
    // Without contention both take 5335 and the contention figures are absent.
    const free = simulate(onePlusOne({ decider: 'always' }), { latency: pd2Latency(), source: new ArrayRequestSource([req(0, 0, 1000, 4), req(1, 0, 1000, 4)]) });
    expect(free.pd!.kv_transfer_duration.mean_ms).toBe(5.335);
    expect(free.pd!.peak_concurrent_transfers).toBeUndefined();
    expect(free.pd!.mean_transfer_queue_depth).toBeUndefined();
  });
});

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

describe('what a parent reports', () => {
  it("its scheduling delay is its prefill part's, its ITL its decode part's", () => {
    // Budget 1000 tokens: one prompt per prefill step. Decode steps take 6000 + 2000 per sequence.
    //   A: prefill 0 → 30,000, transfer → 35,335, 9 decode steps (10 outputs).
    //   B: prefill 30,000 → 60,000 (scheduling delay 30,000), transfer → 65,335; it waits for
    //      A's step 59,335 → 67,335 and is scheduled at 67,335.
    //   A's steps: 4 alone (8000) 35,335 → 67,335; 3 with B (10,000) → 97,335; 2 alone → 113,335.
    //   A: TTFT 43,335; E2E 35,335 + 78,000 = 113,335; ITL 78,000 / 9.
    //   B: 3 steps with A: TTFT 67,335 + 10,000 = 77,335; E2E 97,335; ITL 10,000; scheduling delay
    //      30,000 (its decode part's would be 67,335).
    const prepared = prepareSimulation(onePlusOne({ decider: 'always' }, { maxNumBatchedTokens: 1000 }), {
      latency: pd2Latency(6000, 2000),
      source: new ArrayRequestSource([req(0, 0, 1000, 10, { id: 'A' }), req(1, 0, 1000, 4, { id: 'B' })]),
    });
    const r = runPrepared(prepared);
    const a = byId(r).get('A')!;
    const b = byId(r).get('B')!;
    expect([us(a.ttft_ms), us(a.e2e_ms), us(a.scheduling_delay_ms)]).toEqual([43_335, 113_335, 0]);
    expect(a.itl_ms * 1000).toBeCloseTo(78_000 / 9, 9);
    expect([us(b.ttft_ms), us(b.e2e_ms), us(b.itl_ms), us(b.scheduling_delay_ms)]).toEqual([77_335, 97_335, 10_000, 30_000]);
    // The same figures as the parts' on their pods, in completion order: prefill parts' scheduling
    // delays on instance_0 (A, B), decode parts' on instance_1 (B at 97,335, then A).
    const [prefillPod, decodePod] = prepared.cluster.instances.map((i) => i.metrics);
    expect([...prefillPod.requestIndex.view()]).toEqual([0, 1]);
    expect([...prefillPod.schedulingDelayUs.view()]).toEqual([0, 30_000]);
    expect([...decodePod.requestIndex.view()]).toEqual([1, 0]);
    expect([...decodePod.schedulingDelayUs.view()]).toEqual([67_335, 35_335]);
    expect([...decodePod.itlUs.view()]).toEqual([10_000, 78_000 / 9]);
    expect(decodePod.itlUs.get(1) / 1000).toBe(a.itl_ms);
    expect(decodePod.itlUs.get(0) / 1000).toBe(b.itl_ms);
    expect(r.scheduling_delay_p99_ms).toBeCloseTo(30, 0);
  });

  it('never on prefillDecodeInstances N is the monolithic N run once pd and the pools are removed', () => {
    const workload = { kind: 'synthetic' as const, rate: 40, numRequests: 120, promptTokens: 400, promptTokensStdev: 200, outputTokens: 60, outputTokensStdev: 30, prefixTokens: 64 };
    const routings: SimulationConfigInput['routing'][] = [
      { policy: 'round-robin' },
      { policy: 'least-loaded' },
      { policy: 'weighted', scorers: [{ name: 'precise-prefix-cache', weight: 2 }, { name: 'queue-depth', weight: 1 }] },
    ];
    for (const routing of routings) {
      const base: SimulationConfigInput = { numInstances: 3, seed: 11, latencyModel: 'blackbox', totalKVBlocks: 600, checkInvariants: true, includeRequests: true, routing, workload };
      const mono = simulate(base);
      const pd = simulate({ ...base, pd: { prefillDecodeInstances: 3, decider: 'never' } });
      expect(pd.pd!.local_requests).toBe(120);
      expect(pd.pd!.pools.shared).toEqual(['instance_0', 'instance_1', 'instance_2']);
      expect(JSON.stringify(withoutPd(pd))).toBe(JSON.stringify(mono));
    }
  });
});

describe('per-pool overrides', () => {
  const workload = { kind: 'synthetic' as const, rate: 20, numRequests: 40, promptTokens: 500, outputTokens: 50 };
  const base = { numInstances: 4, seed: 7, model: LLAMA, totalKVBlocks: 5000, checkInvariants: true, workload } as const;
  const run = (decode: { tp?: number; hardware?: string }) => {
    const rec = new Recorder();
    const r = simulate({ ...base, pd: { prefillInstances: 2, decodeInstances: 2, decider: 'always', decode } }, { observer: rec });
    const prefillSteps = rec.steps.filter((s) => s.instance < 2);
    return { r, prefillSteps, decodeItl: r.instances.slice(2).map((b) => b.itl_mean_ms) };
  };
  let plain: ReturnType<typeof run>;
  beforeAll(() => {
    plain = run({});
  });

  for (const decode of [{ tp: 2 }, { hardware: 'A100-80' }]) {
    it(`pd.decode ${JSON.stringify(decode)} changes the decode pods' ITL, not the prefill pods' steps`, () => {
      const o = run(decode);
      expect(o.r.completed_requests).toBe(40);
      expect(o.prefillSteps.length).toBeGreaterThan(0);
      expect(o.prefillSteps).toEqual(plain.prefillSteps);
      for (let k = 0; k < 2; k++) expect(o.decodeItl[k]).not.toBeCloseTo(plain.decodeItl[k], 3);
      // Faster with TP 2 on H100, slower on A100.
      if (decode.tp === 2) expect(o.r.itl_mean_ms).toBeLessThan(plain.r.itl_mean_ms);
      else expect(o.r.itl_mean_ms).toBeGreaterThan(plain.r.itl_mean_ms);
      // The transfer is sized by the prefill pods' TP, which did not change.
      expect(o.r.pd!.kv_transfer_duration).toEqual(plain.r.pd!.kv_transfer_duration);
    });
  }

  it('pd.prefill.maxModelLen drops the prefill parts of longer prompts, and so their parents', () => {
    // Prompts 300, 600, 900 tokens; prefill pods refuse prompts of 500 tokens or more.
    const specs = () => new ArrayRequestSource([req(0, 0, 300, 5), req(1, 1000, 600, 5), req(2, 2000, 900, 5)]);
    const rec = new Recorder();
    const r = simulate(onePlusOne({ decider: 'always', prefill: { maxModelLen: 500 } }), { latency: pd2Latency(), source: specs(), observer: rec });
    expect(r.completed_requests).toBe(1);
    expect(r.dropped_unservable).toBe(2);
    expect(r.requests!.map((q) => q.request_id)).toEqual(['0']);
    expect(rec.dropped.map((d) => [d.id, d.reason])).toEqual([
      ['1', 'unservable'],
      ['2', 'unservable'],
    ]);
    expect(r.pd).toMatchObject({ disaggregated_requests: 1, transfers_initiated: 1, transfers_completed: 1, dropped_at_decode_kv: 0 });
    // Requests kept local never see the prefill pool's limit.
    const local = simulate(onePlusOne({ decider: 'never', prefill: { maxModelLen: 500 } }), { latency: pd2Latency(), source: specs() });
    expect(local.completed_requests).toBe(3);
  });

  it('pd.decode.maxModelLen drops split requests over the decode window at the reservation (BLIS skips the check)', () => {
    // Prompts 300, 600 tokens with 5 outputs; the decode pods refuse prompt + output over 500.
    const specs = () => new ArrayRequestSource([req(0, 0, 300, 5), req(1, 1000, 600, 5)]);
    const r = simulate(onePlusOne({ decider: 'always', decode: { maxModelLen: 500 } }), { latency: pd2Latency(), source: specs() });
    expect(r.requests!.map((q) => q.request_id)).toEqual(['0']);
    expect(r.dropped_unservable).toBe(1);
    expect(r.pd).toMatchObject({ disaggregated_requests: 1, dropped_at_decode_kv: 1, transfers_initiated: 2, transfers_completed: 2 });
  });

  it('shared pods take the decode overrides ("decode wins")', () => {
    // 1 prefill pod + 1 shared pod; never: every request is whole on the shared pod, whose
    // context window is the decode pool's 500 tokens.
    const r = simulate(
      { numInstances: 2, model: LLAMA, tp: 1, totalKVBlocks: 1000, checkInvariants: true, includeRequests: true, pd: { prefillInstances: 1, prefillDecodeInstances: 1, decider: 'never', prefill: { maxModelLen: 5000 }, decode: { maxModelLen: 500 } } },
      { latency: pd2Latency(), source: new ArrayRequestSource([req(0, 0, 300, 5), req(1, 1000, 600, 5)]) },
    );
    expect(r.requests!.map((q) => [q.request_id, q.handled_by])).toEqual([['0', 'instance_1']]);
    expect(r.dropped_unservable).toBe(1);
  });

  it('prefillRoutingScorers / decodeRoutingScorers: that pool routes with a weighted scorer; the other keeps the main policy', () => {
    // 2 prefill + 2 decode pods, main policy round-robin (no scores).
    const specs = () => new ArrayRequestSource(Array.from({ length: 8 }, (_, i) => req(i, i * 100_000, 200, 3)));
    const cfg = (pd: SimulationConfigInput['pd']): SimulationConfigInput => ({ numInstances: 4, model: LLAMA, tp: 1, totalKVBlocks: 1000, checkInvariants: true, pd: { prefillInstances: 2, decodeInstances: 2, ...pd } });

    const plainRec = new Recorder();
    simulate(cfg({ decider: 'always' }), { latency: pd2Latency(), source: specs(), observer: plainRec });
    expect(plainRec.prefillRouting.every((p) => p.decision.scores === undefined && p.poolSize === 2)).toBe(true);
    // Round-robin over the prefill pool, a policy of its own: 0, 1, 0, 1, ...
    expect(plainRec.transfers.map((t) => t.prefillInstance)).toEqual([0, 1, 0, 1, 0, 1, 0, 1]);
    expect(plainRec.transfers.map((t) => t.decodeInstance)).toEqual([2, 3, 2, 3, 2, 3, 2, 3]);

    const pre = new Recorder();
    simulate(cfg({ decider: 'always', prefillRoutingScorers: [{ name: 'queue-depth', weight: 1 }] }), { latency: pd2Latency(), source: specs(), observer: pre });
    expect(pre.prefillRouting).toHaveLength(8);
    for (const p of pre.prefillRouting) {
      expect(p.poolSize).toBe(2);
      expect(p.decision.scores).toHaveLength(2);
      expect(Object.keys(p.decision.breakdown ?? {})).toEqual(['queue-depth']);
    }

    // Decode scorers: seen on the routing of requests kept local (never), whose pool is the decode pool.
    const dec = new Recorder();
    simulate(cfg({ decider: 'never', decodeRoutingScorers: [{ name: 'kv-utilization', weight: 1 }] }), { latency: pd2Latency(), source: specs(), observer: dec });
    expect(dec.routing).toHaveLength(8);
    for (const p of dec.routing) {
      expect(p.poolSize).toBe(2);
      expect(p.decision.scores).toHaveLength(2);
      expect(Object.keys(p.decision.breakdown ?? {})).toEqual(['kv-utilization']);
    }
    expect(dec.scheduled.every((s) => s.part === RequestPart.Whole && s.instance >= 2)).toBe(true);
    const decPlain = new Recorder();
    simulate(cfg({ decider: 'never' }), { latency: pd2Latency(), source: specs(), observer: decPlain });
    expect(decPlain.routing.every((p) => p.decision.scores === undefined)).toBe(true);
  });

  it('instances beyond P + D + S are in no pool and get nothing', () => {
    const r = simulate(
      { numInstances: 5, model: LLAMA, tp: 1, totalKVBlocks: 1000, checkInvariants: true, pd: { prefillInstances: 1, decodeInstances: 1, prefillDecodeInstances: 1, decider: 'always' } },
      { latency: pd2Latency(), source: new ArrayRequestSource(Array.from({ length: 12 }, (_, i) => req(i, i * 50_000, 300, 4))) },
    );
    expect(r.completed_requests).toBe(12);
    expect(r.pd!.pools).toEqual({ prefill: ['instance_0'], decode: ['instance_1'], shared: ['instance_2'], unassigned: ['instance_3', 'instance_4'] });
    expect(r.target_distribution.instance_3).toBe(0);
    expect(r.target_distribution.instance_4).toBe(0);
    expect(r.instances.slice(3).map((b) => [b.pool, b.completed_requests])).toEqual([
      ['unassigned', 0],
      ['unassigned', 0],
    ]);
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
