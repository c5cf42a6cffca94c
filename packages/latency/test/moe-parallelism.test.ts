import { describe, expect, it } from 'vitest';
import {
  LatencyConfigError,
  TrainedPhysicsLatencyModel,
  deriveKVCapacity,
  hardwareSpec,
  resolveLatency,
} from '../src/index.js';
import {
  DEFAULT_MOE_COMM_BACKEND,
  MOE_COMM_BACKENDS,
  balancedExpertLoad,
  dispatchLayerBasis,
  moeCommFamily,
} from '../src/internal.js';
import type { DispatchShape } from '../src/internal.js';
import { arch, step } from './step-batch.js';

// Issue 38: BLIS HEAD's data/expert parallelism of trained-physics, term by term, on
// qwen3-30b-a3b (48 MoE layers, d 2048, 32 heads (dHead 64 by BLIS's d/h), 4 KV heads, 128
// experts of width 768, top-8, bf16) on H100 (3.35e6 B/µs).

const H100 = hardwareSpec('H100');
const QWEN_MOE = arch('qwen/qwen3-30b-a3b');
const BW = 3.35e6;
const close = (got: number, want: number) => expect(got).toBeCloseTo(want, 9);
/** 100 decodes at context 1,000: 100 tokens in the step. */
const DECODES = step([], new Array<number>(100).fill(1000));

describe('MoE comm backends (vLLM VLLM_ALL2ALL_BACKEND)', () => {
  it('are BLIS HEAD`s seven, in vLLM`s order, allgather_reducescatter by default', () => {
    expect(MOE_COMM_BACKENDS).toEqual(['naive', 'allgather_reducescatter', 'pplx', 'deepep_high_throughput', 'deepep_low_latency', 'mori', 'flashinfer_all2allv']);
    expect(DEFAULT_MOE_COMM_BACKEND).toBe('allgather_reducescatter');
  });

  it('fall in two volume families', () => {
    expect(MOE_COMM_BACKENDS.map(moeCommFamily)).toEqual(['all-gather', 'all-gather', 'all-to-all', 'all-to-all', 'all-to-all', 'all-to-all', 'all-to-all']);
  });
});

describe('balanced expert placement, by hand', () => {
  it('100 tokens, top-8, 128 experts over TP 2 × DP 2', () => {
    // compute: 100·8/4 = 200 token·expert pairs; experts: 128/4 = 32 per GPU;
    // comm: (100/2)·8·(3/4)·2 = 600 pairs sent and received by one rank.
    expect(balancedExpertLoad(100, 8, 128, 4, 2)).toEqual({ computeTokens: 200, expertCount: 32, commTokens: 600 });
  });

  it('a group of one GPU exchanges nothing', () => {
    expect(balancedExpertLoad(100, 8, 128, 1, 1)).toEqual({ computeTokens: 800, expertCount: 128, commTokens: 0 });
  });
});

describe('dispatch/combine basis per backend, by hand', () => {
  const shape = (backend: (typeof MOE_COMM_BACKENDS)[number], group: number, dp: number): DispatchShape => ({
    family: moeCommFamily(backend),
    hiddenSize: 2048,
    activationBytes: 2,
    k: 8,
    experts: 128,
    group,
    dp,
    bytesPerUs: BW,
  });

  it('all-gather family: (tokens/dp)·(g − 1)/g·2·hidden·bytes, no top-k', () => {
    // (100/2)·(3/4)·2·2048·2 = 307,200 B / 3.35e6 = 0.0917015 µs per layer, for naive and allgather_reducescatter alike.
    for (const b of ['naive', 'allgather_reducescatter'] as const) close(dispatchLayerBasis(shape(b, 4, 2), 100), 307_200 / BW);
    // TP 1 × DP 4: (100/4)·(3/4)·2·2048·2 = 153,600 B.
    close(dispatchLayerBasis(shape('allgather_reducescatter', 4, 4), 100), 153_600 / BW);
  });

  it('all-to-all family: each token to its top-k: (tokens/dp)·k·(g − 1)/g·2·hidden·bytes', () => {
    // 600 comm pairs · 2048 · 2 = 2,457,600 B / 3.35e6 = 0.7336119 µs per layer: 8× the all-gather volume.
    for (const b of ['pplx', 'deepep_high_throughput', 'deepep_low_latency', 'mori', 'flashinfer_all2allv'] as const) close(dispatchLayerBasis(shape(b, 4, 2), 100), 2_457_600 / BW);
    close(dispatchLayerBasis(shape('deepep_low_latency', 4, 4), 100), 1_228_800 / BW);
  });
});

describe('trained-physics step bases with DP and EP (qwen3-30b-a3b, H100)', () => {
  it('TP 2, DP 1: the MoE output is all-reduced over TP, no dispatch', () => {
    const t = new TrainedPhysicsLatencyModel(QWEN_MOE, H100, 2).basesOf(DECODES);
    // attention + MoE all-reduce: 2 × 48·100·2048·2 B·2·(1/2) / 3.35e6 = 2 × 5.868896 µs
    close(t.tpComm, 11.73779104477612);
    expect(t.moeDispatch).toBe(0);
    // weights: attention 48·2048·(4096 + 512)·2/2 = 452,984,832 B; experts 48·(128/2)·3·2048·768·2 = 28,991,029,248 B
    close(t.weight, (452_984_832 + 28_991_029_248) / BW);
  });

  it('TP 2, DP 2: attention all-reduce per rank (/dp), dispatch instead of the MoE all-reduce, experts over 4 GPUs', () => {
    const t = new TrainedPhysicsLatencyModel(QWEN_MOE, H100, 2, undefined, undefined, { dp: 2, enableExpertParallel: true }).basesOf(DECODES);
    close(t.tpComm, 5.86889552238806 / 2);
    // all-gather: 48 layers × 307,200 B / 3.35e6 = 4.4016716 µs
    close(t.moeDispatch, 4.4016716417910455);
    // experts 48·(128/4)·3·2048·768·2 = 14,495,514,624 B: half of DP 1's
    close(t.weight, (452_984_832 + 14_495_514_624) / BW);
  });

  it('an all-to-all backend charges the top-k volume: 8× here', () => {
    const t = new TrainedPhysicsLatencyModel(QWEN_MOE, H100, 2, undefined, undefined, { dp: 2, enableExpertParallel: true, moeCommBackend: 'pplx' }).basesOf(DECODES);
    close(t.moeDispatch, 35.213373134328364);
  });

  it('per-rank compute: tokens over DP, routed pairs over TP·DP', () => {
    const one = new TrainedPhysicsLatencyModel(QWEN_MOE, H100, 1).basesOf(DECODES);
    const four = new TrainedPhysicsLatencyModel(QWEN_MOE, H100, 1, undefined, undefined, { dp: 4, enableExpertParallel: true }).basesOf(DECODES);
    // TP 1: every term of decode compute and KV is divided by dp = 4.
    close(four.dcCompute, one.dcCompute / 4);
    close(four.dcKv, one.dcKv / 4);
  });

  it('β11 weighs the dispatch basis: 11 betas set it, fewer copy β4', () => {
    const beta10 = [0.152128, 0, 1.36252915, 0.752037, 32.09546717, 4.41684444, 126.024825, 481.8613888, 0, 1.94710771];
    const p = { dp: 2, enableExpertParallel: true } as const;
    const alpha = [0, 0, 0];
    const copied = new TrainedPhysicsLatencyModel(QWEN_MOE, H100, 2, alpha, beta10, p);
    const zero = new TrainedPhysicsLatencyModel(QWEN_MOE, H100, 2, alpha, [...beta10, 0], p);
    const ten = new TrainedPhysicsLatencyModel(QWEN_MOE, H100, 2, alpha, [...beta10, 10], p);
    const big = step([], new Array<number>(256).fill(4000));
    const dispatch = zero.basesOf(big).moeDispatch;
    expect(dispatch).toBeGreaterThan(0);
    // The difference of step times is the dispatch basis weighted by β11, within truncation.
    expect(Math.abs(ten.stepTime(big) - zero.stepTime(big) - 10 * dispatch)).toBeLessThan(1);
    expect(Math.abs(copied.stepTime(big) - zero.stepTime(big) - 0.752037 * dispatch)).toBeLessThan(1);
  });
});

describe('KV capacity per DP rank (qwen3-30b-a3b on H100 at TP 1)', () => {
  // Whole model 30,129,457,152 parameters (56.12 GiB in bf16), of which routed experts
  // 48·3·2048·768·128 = 28,991,029,248. A DP rank holds the rest and 1/dp of the experts.
  const at = (dp: number) => deriveKVCapacity({ modelConfig: QWEN_MOE, hardware: H100, tp: 1, dp });

  it('DP 1: 72 − 56.12 − 8 − 0.15 GiB / 1,572,864 B per block = 5,276 blocks (BLIS`s figure)', () => {
    const d = at(1);
    expect(d.weightGiB).toBeCloseTo(56.1205, 4);
    expect(d.blocks).toBe(5276);
    expect(d.dp).toBe(1);
  });

  it('DP 2: each rank holds half the experts (29.12 GiB): 23,708 blocks per rank, 47,416 in all', () => {
    // (30,129,457,152 − 28,991,029,248 / 2)·2 = 31,267,885,056 B; 72 − 29.1205 − 8.15 = 34.7295 GiB
    // = 37,290,530,406 B / 1,572,864 = 23,708 per rank. BLIS keeps the whole model per rank: 2 × 5,276.
    const d = at(2);
    expect(d.weightGiB).toBeCloseTo(29.1205, 4);
    expect(d.allocatableBytes).toBe(37_290_530_406);
    expect(d.blocks).toBe(47_416);
  });

  it('DP 4: 15.62 GiB per rank, 4 × 32,924 = 131,696 blocks', () => {
    expect(at(4).blocks).toBe(131_696);
  });

  it('a dense model is never scaled by DP', () => {
    const dense = arch('qwen/qwen3-14b');
    expect(deriveKVCapacity({ modelConfig: dense, hardware: H100, tp: 1, dp: 2 }).blocks).toBe(deriveKVCapacity({ modelConfig: dense, hardware: H100, tp: 1 }).blocks);
  });
});

describe('refusals (resolveLatency)', () => {
  const refuse = (opts: Parameters<typeof resolveLatency>[0], message: string) => {
    expect(() => resolveLatency(opts)).toThrow(LatencyConfigError);
    expect(() => resolveLatency(opts)).toThrow(message);
  };
  const moe = { model: 'qwen/qwen3-30b-a3b', hardware: 'H100', tp: 1 };

  it('DP below 1', () => refuse({ ...moe, parallelism: { dp: 0, enableExpertParallel: false } }, '--dp: expected an integer >= 1 (data-parallel ranks per instance), found 0'));

  it('a dense model', () =>
    refuse({ model: 'qwen/qwen3-14b', parallelism: { dp: 2, enableExpertParallel: false } }, "--dp: expected a mixture-of-experts model (at least 2 routed experts; a dense model's data parallelism is --num-instances), found --dp 2 for qwen/qwen3-14b, a dense model"));

  it('expert parallelism on a dense model', () => refuse({ model: 'qwen/qwen3-14b', parallelism: { dp: 1, enableExpertParallel: true } }, '--enable-expert-parallel: expected a mixture-of-experts model'));

  it('another latency model', () =>
    refuse({ ...moe, latencyModel: 'roofline', parallelism: { dp: 2, enableExpertParallel: false } }, '--dp: expected --latency-model trained-physics (the only latency model with data/expert-parallel terms), found --dp 2 with --latency-model roofline'));

  it('a backend at DP 1', () => refuse({ ...moe, parallelism: { dp: 1, enableExpertParallel: true, moeCommBackend: 'pplx' } }, '--moe-comm-backend: expected --dp > 1'));

  it('an all-to-all backend without expert parallelism (vLLM would all-gather)', () =>
    refuse({ ...moe, parallelism: { dp: 2, enableExpertParallel: false, moeCommBackend: 'deepep_low_latency' } }, '--moe-comm-backend: expected --enable-expert-parallel with deepep_low_latency'));

  it('an unknown backend', () => refuse({ ...moe, parallelism: { dp: 2, enableExpertParallel: true, moeCommBackend: 'nccl' as never } }, '--moe-comm-backend: expected one of naive, allgather_reducescatter'));

  it('accepts an all-gather backend without EP, and reports the ranks', () => {
    const r = resolveLatency({ ...moe, parallelism: { dp: 2, enableExpertParallel: false, moeCommBackend: 'naive' } });
    expect(r.dp).toBe(2);
    expect(r.source).toContain('TP1 DP2 naive');
  });
});
