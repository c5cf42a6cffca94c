import { ArrayRequestSource, type RequestSpec, type SimRequest, makeRequestSpec } from '@blis/engine';
import type { LatencyModel, StepBatch } from '@blis/latency';
import type { EncodeDecider, RouterState, RoutingDecision } from '@blis/policies';
import type { DecisionObserver } from '@blis/trace';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, simulate } from '../../src/index.js';
import { simulateChecked } from '../../src/testing/index.js';

// The E/P/D encode stage on worked examples: which requests it sends to an encode pod, how its
// decisions share the main router with the decode pool (BLIS HEAD's behaviour), its rejections
// while no encode pod is routable, and that encode pods run nothing. Times are µs.

const LLAMA = 'meta-llama/llama-3.1-8b-instruct';
const flat: LatencyModel = { kind: 'flat', stepTime: (b: StepBatch) => (b.prefillCount > 0 ? 10_000 : 5_000), queueingTime: () => 0, outputTokenTime: () => 0, postDecodeFixedOverhead: () => 0 };

const image = { text: 40, image: 60, audio: 0, video: 0 };
/** Request i at i × 100 ms, 100 prompt tokens, 3 output tokens; every other one (odd i) with an image. */
const reqs = (n: number, media: (i: number) => boolean = (i) => i % 2 === 1): RequestSpec[] =>
  Array.from({ length: n }, (_, i) => makeRequestSpec({ index: i, arrivalUs: i * 100_000, inputTokens: 100, outputTokens: 3, ...(media(i) ? { modalities: image } : {}) }));

/** 1 prefill pod (instance_0), 2 decode pods (instance_1, instance_2), 1 encode pod (instance_3); requests kept whole. */
const epd = (encodeDecider: 'never' | 'always' | 'multimodal', extra: Partial<SimulationConfigInput> = {}): SimulationConfigInput => ({
  numInstances: 4,
  model: LLAMA,
  tp: 1,
  totalKVBlocks: 1000,
  checkInvariants: true,
  includeRequests: true,
  routing: { policy: 'round-robin' },
  ...extra,
  pd: { prefillInstances: 1, decodeInstances: 2, encodeInstances: 1, encodeDecider },
});

class EncodeLog implements DecisionObserver {
  readonly encoded: { id: string; pool: number[]; instance: number }[] = [];
  readonly dropped: { id: string; reason: string; detail?: string }[] = [];
  readonly ready: { instance: number; now: number }[] = [];
  onEncodeRouting(req: SimRequest, d: RoutingDecision, state: RouterState) {
    this.encoded.push({ id: req.spec.id, pool: state.instances.map((s) => s.index), instance: state.instances[d.instance].index });
  }
  onDropped(req: SimRequest, _now: number, reason: string, detail?: string) {
    this.dropped.push({ id: req.spec.id, reason, ...(detail !== undefined ? { detail } : {}) });
  }
  onInstanceState(instance: number, _id: string, state: string, now: number) {
    if ((state === 'active' || state === 'warming-up') && !this.ready.some((r) => r.instance === instance)) this.ready.push({ instance, now });
  }
}

describe('the E/P/D encode stage', () => {
  it('never: the encode pod is idle and round-robin alternates the two decode pods', () => {
    const r = simulate(epd('never'), { latency: flat, source: new ArrayRequestSource(reqs(8)) });
    expect(r.target_distribution).toEqual({ instance_0: 0, instance_1: 4, instance_2: 4, instance_3: 0 });
    expect(r.pd!.encode).toEqual({ decider: 'never', encoded_requests: 0, encode_routing_rejections: 0, encode_distribution: { instance_3: 0 } });
    expect(r.pd!.pools.encode).toEqual(['instance_3']);
  });

  it('always: each encode decision takes a turn of the shared round-robin counter, so every request lands on the first decode pod (as in BLIS)', () => {
    // Request k: the decode pick uses counter 2k (position 2k mod 2 = 0: instance_1), the encode
    // pick counter 2k + 1 (the one encode pod).
    const log = new EncodeLog();
    const r = simulate(epd('always'), { latency: flat, source: new ArrayRequestSource(reqs(8)), observer: log });
    expect(r.target_distribution).toEqual({ instance_0: 0, instance_1: 8, instance_2: 0, instance_3: 0 });
    expect(r.completed_requests).toBe(8);
    expect(r.pd!.encode).toMatchObject({ encoded_requests: 8, encode_routing_rejections: 0, encode_distribution: { instance_3: 8 } });
    expect(log.encoded.map((e) => [e.id, e.pool, e.instance])).toEqual(reqs(8).map((q) => [q.id, [3], 3]));
  });

  it('multimodal: only requests with image, audio or video tokens are encoded; each shifts the decode pods after it by one', () => {
    // Requests 0..7, odd ones with an image. Counter: r0 decode 0 (instance_1); r1 decode 1
    // (instance_2), encode 2; r2 decode 3 (instance_2); r3 decode 4 (instance_1), encode 5; r4
    // decode 6 (instance_1); r5 decode 7 (instance_2), encode 8; r6 decode 9 (instance_2); r7 decode 10 (instance_1), encode 11.
    const r = simulate(epd('multimodal'), { latency: flat, source: new ArrayRequestSource(reqs(8)) });
    expect(r.requests!.map((q) => q.handled_by)).toEqual(['instance_1', 'instance_2', 'instance_2', 'instance_1', 'instance_1', 'instance_2', 'instance_2', 'instance_1']);
    expect(r.pd!.encode).toMatchObject({ encoded_requests: 4, encode_routing_rejections: 0 });
  });

  it('a text request with text_tokens only is not multimodal', () => {
    const text = reqs(4, () => false).map((q) => ({ ...q, modalities: { text: 100, image: 0, audio: 0, video: 0 } }));
    const r = simulate(epd('multimodal'), { latency: flat, source: new ArrayRequestSource(text) });
    expect(r.pd!.encode!.encoded_requests).toBe(0);
  });

  it('a custom encode decider object (compiled against @blis/policies alone) replaces the named one', () => {
    const firstHalf: EncodeDecider = { name: 'first-half', shouldEncode: (req) => req.index < 4 };
    const r = simulate(epd('never'), { latency: flat, source: new ArrayRequestSource(reqs(8)), encodeDecider: firstHalf });
    expect(r.pd!.encode).toMatchObject({ decider: 'first-half', encoded_requests: 4 });
  });

  it('no routable encode pod: the requests it would encode are rejected, counted apart and in rejected_requests (INV-1 holds)', () => {
    // Every pod loads for 1 s ± 0.5 s (BLIS's lifecycle draws, one per pod). Requests arriving before any
    // decode pod is routable wait for one; all of them, and those arriving after, until the
    // encode pod is routable are rejected at the encode stage. Seeds are tried until the encode
    // pod is the last to load.
    const lifecycle = { loadingDelay: { meanUs: 1_000_000, stddevUs: 500_000 } };
    // With node pools the replicas present at the start load too (no warm start).
    const nodePools = [{ name: 'h100', gpuType: 'H100', gpusPerNode: 1, gpuMemoryGib: 80, initialNodes: 4, maxNodes: 4 }];
    let checked = 0;
    for (let seed = 1; seed <= 40 && checked < 2; seed++) {
      const log = new EncodeLog();
      const config = epd('always', { seed, hardware: 'H100', lifecycle, nodePools });
      const run = simulateChecked(config, { latency: flat, source: new ArrayRequestSource(reqs(40)), observer: log });
      expect(run.violations).toEqual([]);
      const r = run.result!;
      const encodeReady = log.ready.find((x) => x.instance === 3)!.now;
      const decodeReady = Math.min(...log.ready.filter((x) => x.instance === 1 || x.instance === 2).map((x) => x.now));
      if (!(decodeReady < encodeReady)) continue;
      checked++;
      const expected = reqs(40).filter((q) => q.arrivalUs < encodeReady).length;
      expect(expected).toBeGreaterThan(0);
      expect(r.pd!.encode!.encode_routing_rejections).toBe(expected);
      expect(r.rejected_requests).toBe(expected);
      expect(r.completed_requests).toBe(40 - expected);
      expect(log.dropped.filter((d) => d.reason === 'rejected' && d.detail === 'no routable encode pod')).toHaveLength(expected);
      expect(r.unfinished_requests!.filter((u) => u.outcome === 'rejected')).toHaveLength(expected);
    }
    expect(checked).toBe(2);
  });
});
