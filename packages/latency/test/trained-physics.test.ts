import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LatencyConfigError, TRAINED_PHYSICS_DEFAULTS, TrainedPhysicsLatencyModel, hardwareSpec, parseModelConfig, resolveLatency } from '../src/index.js';
import { arch, step } from './step-batch.js';
import { normalizeBetas } from '../src/trained-physics/coefficients.js';

// BLIS HEAD's trained-physics backend, term by term, with its shipped coefficients
// beta = [0.152128, 0, 1.36252915, 0.752037, 32.09546717, 4.41684444, 126.024825, 481.8613888,
// 0, 1.94710771, 0.752037] and raw H100 peaks (989.5e6 FLOP/µs, 3.35e6 B/µs, no MFU).

const H100 = hardwareSpec('H100');
const LLAMA = arch('meta-llama/llama-3.1-8b-instruct');
const MIXTRAL = arch('mixtral-8x7b-v0.1');
const SCOUT = arch('redhatai/llama-4-scout-17b-16e-instruct-fp8-dynamic');


const close = (got: number, want: number) => expect(got).toBeCloseTo(want, 6);

describe('trained-physics, llama-3.1-8b on H100, TP 1 (BLIS defaults)', () => {
  // L 32, d 4096, 32 heads of 128, dKV 1024, dFF 14336, bf16 weights.
  const m = new TrainedPhysicsLatencyModel(LLAMA, H100, 1);

  it('first 2,048-token chunk of a 4,808-token prompt: 12,192 µs', () => {
    const t = m.basesOf(step([[0, 2048, 4808]], []));
    // attention uses the whole prompt: 4·32·2048·(4808 + 1024)·128·32 = 6,262,062,317,568 FLOPs;
    // projections 32·2·2048·4096·(8192 + 2048) = 5,497,558,138,880; FFN 32·2048·6·4096·14336
    // = 23,089,744,183,296 → 34,849,364,639,744 / 989.5e6 = 35,219.166 µs
    close(t.pfCompute, 35219.16588149975);
    // KV written: 32·2·1024·2048·2 B = 268,435,456 B / 3.35e6 = 80.130 µs
    close(t.pfKv, 80.12998686567164);
    // weights, 3 FFN matrices: 32·4096·(8192 + 2048)·2 + 32·3·4096·14336·2 = 13,958,643,712 B → 4,166.759 µs
    close(t.weight, 4166.759317014926);
    expect(t.tpComm).toBe(0);
    expect(t.requests).toBe(1);
    // 0.152128·35,219.166 + 0·80.13 + 1.36252915·4,166.759 + 32.09546717·32 + 4.41684444·1 + 126.024825
    // = 5,357.821 + 5,677.330 + 1,027.055 + 4.417 + 126.025 = 12,192.649
    expect(m.stepTime(step([[0, 2048, 4808]], []))).toBe(12192);
  });

  it('a lone decode at context 4,808: 7,201 µs', () => {
    const t = m.basesOf(step([], [4808]));
    // KV read + write: 32·2·1024·2·(4808 + 1) = 630,325,248 B / 3.35e6 = 188.157 µs
    close(t.dcKv, 188.15679044776118);
    // 1.94710771·188.157 + 1.36252915·4,166.759 + 1,027.055 + 4.417 + 126.025 = 7,201.189
    expect(m.stepTime(step([], [4808]))).toBe(7201);
  });

  it('a mixed step adds both phases and counts every request in beta[5]: 8,842 µs', () => {
    // prefill 760 new tokens of a 4,808 prompt; decodes at 100, 200, 300 (sum 600, 3 tokens).
    const t = m.basesOf(step([[4048, 760, 4808]], [100, 200, 300]));
    close(t.pfCompute, 12810.28184998484);
    close(t.dcKv, 23.59296); // 32·2·1024·2·603 / 3.35e6
    expect(t.requests).toBe(4);
    expect(m.stepTime(step([[4048, 760, 4808]], [100, 200, 300]))).toBe(8842);
  });

  it('alphas: constant queueing, post-decode overhead once, per-output-token time', () => {
    expect(m.queueingTime(1)).toBe(15563);
    expect(m.queueingTime(100000)).toBe(15563);
    expect(m.postDecodeFixedOverhead()).toBe(777);
    expect(m.outputTokenTime()).toBe(45);
    expect(m.stepTime(step([], []))).toBe(1);
  });
});

describe('trained-physics, tensor parallelism', () => {
  it('TP 2 halves compute and weights and adds the all-reduce: 6,916 µs', () => {
    const m = new TrainedPhysicsLatencyModel(LLAMA, H100, 2);
    const t = m.basesOf(step([[0, 2048, 4808]], []));
    // (32 attention + 32 dense-FFN units)·2048 tokens·4096·2 B·2 phases·(1/2) / 3.35e6 = 320.520 µs
    close(t.tpComm, 320.51994746268656);
    close(t.weight, 2083.379658507463);
    expect(m.stepTime(step([[0, 2048, 4808]], []))).toBe(6916);
  });
});

describe('trained-physics, MoE', () => {
  it('mixtral (uniform MoE) at TP 2: experts sharded over TP, MoE all-reduce at DP 1, no beta[7]', () => {
    const m = new TrainedPhysicsLatencyModel(MIXTRAL, H100, 2);
    const t = m.basesOf(step([], [1000, 1000, 1000, 1000]));
    // weights: attention 32·4096·10240·2/2 = 1,342,177,280 B; experts 32·(8/2)·3·4096·14336·2
    // = 45,097,156,608 B → 46,439,333,888 / 3.35e6 = 13,862.488 µs
    close(t.weight, 13862.487727761194);
    // all-reduce units: 32 attention + 0 dense + 32 MoE = 64; 64·4·4096·2·2·(1/2) / 3.35e6
    close(t.tpComm, 0.6260155223880597);
    // FFN compute: 32 layers·(4·2/2 routed tokens)·6·4096·14336 on the busiest GPU
    expect(m.stepTime(step([], [1000, 1000, 1000, 1000]))).toBe(20211);
  });

  it('llama-4-scout (interleaved, fp8): 24 MoE + 24 dense layers, FP8 peak, beta[7] per MoE layer', () => {
    const m = new TrainedPhysicsLatencyModel(SCOUT, H100, 1);
    const t = m.basesOf(step([], [1000, 1000, 1000, 1000]));
    // weights at 1 B: 48·5120·(10240 + 2048) + 24·16·3·5120·8192 + 24·3·5120·16384
    // = 57,378,734,080 B → 17,127.785 µs
    close(t.weight, 17127.784692537312);
    // compute at 1979e6 FLOP/µs (fp8 weights): 50.818 µs
    close(t.dcCompute, 50.81805162203133);
    // … + 481.8613888·24 MoE layers = 11,564.673 µs of the 37,043.606
    expect(m.stepTime(step([], [1000, 1000, 1000, 1000]))).toBe(37043);
  });
});

describe('trained-physics coefficient forms', () => {
  const pf = step([[0, 2048, 4808]], [4808]);
  // pfCompute 35,219.166, pfKv 80.130, dcCompute 16.654, dcKv 188.157 µs
  it('7 or 8 betas: beta[0]·max(prefill compute, kv) + beta[1]·max(decode compute, kv)', () => {
    const m = new TrainedPhysicsLatencyModel(LLAMA, H100, 1, [0, 0, 0], [1, 1, 0, 0, 0, 0, 0]);
    expect(m.stepTime(pf)).toBe(Math.trunc(35219.16588149975 + 188.15679044776118));
  });
  it('9 betas split prefill; 10 split decode too', () => {
    const m9 = new TrainedPhysicsLatencyModel(LLAMA, H100, 1, [0, 0, 0], [1, 1, 0, 0, 0, 0, 0, 0, 1]);
    expect(m9.stepTime(pf)).toBe(Math.trunc(35219.16588149975 + 80.12998686567164 + 188.15679044776118));
    const m10 = new TrainedPhysicsLatencyModel(LLAMA, H100, 1, [0, 0, 0], [1, 1, 0, 0, 0, 0, 0, 0, 1, 1]);
    expect(m10.stepTime(pf)).toBe(Math.trunc(35219.16588149975 + 80.12998686567164 + 16.654290465891865 + 188.15679044776118));
  });
  it('beta[10] (MoE dispatch) defaults to beta[3] unless given', () => {
    expect(normalizeBetas([1, 2, 3, 4, 5, 6, 7]).beta).toEqual([1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 4]);
    expect(normalizeBetas([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]).beta[10]).toBe(11);
    expect(TRAINED_PHYSICS_DEFAULTS.beta).toHaveLength(11);
  });
});

describe('trained-physics: bad input', () => {
  it.each([
    [[1, 2], TRAINED_PHYSICS_DEFAULTS.beta, /^--alpha-coeffs: expected exactly 3 .*found 2$/],
    [[1, Number.NaN, 3], TRAINED_PHYSICS_DEFAULTS.beta, /^--alpha-coeffs: expected finite non-negative .*found NaN at position 2$/],
    [TRAINED_PHYSICS_DEFAULTS.alpha, [1, 2, 3, 4, 5, 6], /^--beta-coeffs: expected 7 to 11 .*found 6$/],
    [TRAINED_PHYSICS_DEFAULTS.alpha, Array(12).fill(1), /^--beta-coeffs: expected 7 to 11 .*found 12$/],
    [TRAINED_PHYSICS_DEFAULTS.alpha, [1, 2, 3, -4, 5, 6, 7], /^--beta-coeffs: expected finite non-negative .*found -4 at position 4$/],
  ])('alpha %j, beta %j', (alpha, beta, message) => {
    expect(() => new TrainedPhysicsLatencyModel(LLAMA, H100, 1, alpha, beta)).toThrow(message);
    expect(() => resolveLatency({ model: 'meta-llama/llama-3.1-8b-instruct', latencyModel: 'trained-physics', alphaCoeffs: alpha, betaCoeffs: beta })).toThrow(LatencyConfigError);
  });

  it('refuses a TP that does not divide the heads, and a config with no intermediate size', () => {
    expect(() => new TrainedPhysicsLatencyModel(LLAMA, H100, 3)).toThrow(/divisible by TP/);
    const noFfn = parseModelConfig({ num_hidden_layers: 2, hidden_size: 64, num_attention_heads: 4, torch_dtype: 'bfloat16' });
    expect(() => new TrainedPhysicsLatencyModel(noFfn, H100, 1)).toThrow(/intermediate_size/);
  });

  it('resolve needs a model config and names --model-config', () => {
    expect(() => resolveLatency({ model: 'microsoft/phi-4', latencyModel: 'trained-physics' })).toThrow(/^--model-config: expected/);
    const r = resolveLatency({ model: 'meta-llama/llama-3.1-8b-instruct', latencyModel: 'trained-physics' });
    expect(r.kind).toBe('trained-physics');
    expect(r.alpha).toEqual([15563.199579, 777.3455, 45.907545]);
  });
});

describe('fixtures', () => {
  it('carries BLIS iter29 golden data with the same coefficients (first 10 betas)', () => {
    const golden = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'trained_physics_iter29.json'), 'utf8')) as { alpha_coeffs: number[]; beta_coeffs: number[] };
    expect(golden.alpha_coeffs).toEqual(TRAINED_PHYSICS_DEFAULTS.alpha);
    expect(golden.beta_coeffs).toEqual(TRAINED_PHYSICS_DEFAULTS.beta.slice(0, 10));
  });
});
