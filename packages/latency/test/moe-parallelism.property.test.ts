import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LatencyConfigError, TrainedPhysicsLatencyModel, deriveKVCapacity, hardwareSpec, resolveLatency } from '../src/index.js';
import { MOE_COMM_BACKENDS, moeCommFamily } from '../src/internal.js';
import { arch, step } from './step-batch.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// Issue 38's properties of data/expert parallelism: off (DP 1, EP off) it changes nothing, EP
// alone changes no step, and a dense model refuses it whatever the degrees.

const H100 = hardwareSpec('H100');
const MOE = ['qwen/qwen3-30b-a3b', 'mixtral-8x7b-v0.1', 'deepseek-v2-lite', 'redhatai/llama-4-scout-17b-16e-instruct-fp8-dynamic'];
const DENSE = ['meta-llama/llama-3.1-8b-instruct', 'qwen/qwen3-14b'];

/** A step of up to 8 prefill chunks and 64 decodes. */
const batchArb = fc
  .record({
    prefill: fc.array(fc.tuple(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 1, max: 2048 })), { maxLength: 8 }),
    decodes: fc.array(fc.integer({ min: 1, max: 16000 }), { maxLength: 64 }),
  })
  .map(({ prefill, decodes }) => step(prefill.map(([start, n]) => [start, n, start + n + 7] as [number, number, number]), decodes));

const tpOf = (model: string) => fc.constantFrom(...[1, 2, 4].filter((t) => arch(model).step.heads % t === 0 && (arch(model).step.kvHeads || arch(model).step.heads) % t === 0));

describe('DP 1 without EP is the model as it was', () => {
  it('the same step time as a model built without parallelism, for every model, TP and step', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MOE, ...DENSE).chain((m) => fc.tuple(fc.constant(m), tpOf(m))),
        batchArb,
        ([model, tp], batch) => {
          const a = arch(model);
          const before = new TrainedPhysicsLatencyModel(a, H100, tp);
          const off = new TrainedPhysicsLatencyModel(a, H100, tp, undefined, undefined, { dp: 1, enableExpertParallel: false });
          expect(off.stepTime(batch)).toBe(before.stepTime(batch));
          expect(off.basesOf(batch)).toEqual(before.basesOf(batch));
          expect(before.basesOf(batch).moeDispatch).toBe(0);
        },
      ),
      { numRuns: propertyRuns(150) },
    );
  });

  it('the same KV capacity as without a DP', () => {
    for (const model of [...MOE, ...DENSE])
      for (const tp of [1, 2, 4]) {
        const input = { modelConfig: arch(model), hardware: H100, tp };
        let before: unknown;
        try {
          before = deriveKVCapacity(input);
        } catch (e) {
          before = (e as Error).message;
        }
        let dp1: unknown;
        try {
          dp1 = deriveKVCapacity({ ...input, dp: 1 });
        } catch (e) {
          dp1 = (e as Error).message;
        }
        expect(dp1).toEqual(typeof before === 'string' ? before : { ...(before as object), dp: 1 });
      }
  });
});

describe('expert parallelism', () => {
  it('changes no step of an MoE model with an all-gather backend, at any DP', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MOE).chain((m) => fc.tuple(fc.constant(m), tpOf(m))),
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom(undefined, 'naive', 'allgather_reducescatter' as const),
        batchArb,
        ([model, tp], dp, backend, batch) => {
          const a = arch(model);
          const p = { dp, moeCommBackend: dp > 1 ? backend : undefined };
          const on = new TrainedPhysicsLatencyModel(a, H100, tp, undefined, undefined, { ...p, enableExpertParallel: true });
          const off = new TrainedPhysicsLatencyModel(a, H100, tp, undefined, undefined, { ...p, enableExpertParallel: false });
          expect(on.stepTime(batch)).toBe(off.stepTime(batch));
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });

  it('an all-to-all backend never costs less than the all-gather one (top-k ≥ 1)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...MOE), fc.integer({ min: 2, max: 8 }), fc.constantFrom(...MOE_COMM_BACKENDS.filter((b) => moeCommFamily(b) === 'all-to-all')), batchArb, (model, dp, backend, batch) => {
        const a = arch(model);
        const ag = new TrainedPhysicsLatencyModel(a, H100, 1, undefined, undefined, { dp, enableExpertParallel: true }).basesOf(batch);
        const a2a = new TrainedPhysicsLatencyModel(a, H100, 1, undefined, undefined, { dp, enableExpertParallel: true, moeCommBackend: backend }).basesOf(batch);
        expect(a2a.moeDispatch).toBeGreaterThanOrEqual(ag.moeDispatch);
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});

describe('a dense model refuses DP and EP', () => {
  it('whatever the degree, the flag and the backend', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DENSE),
        fc.integer({ min: 1, max: 64 }),
        fc.boolean(),
        fc.constantFrom(undefined, 'naive', 'allgather_reducescatter' as const),
        (model, dp, ep, backend) => {
          fc.pre(dp > 1 || ep);
          const run = () => resolveLatency({ model, parallelism: { dp, enableExpertParallel: ep, moeCommBackend: dp > 1 ? backend : undefined } });
          expect(run).toThrow(LatencyConfigError);
          expect(run).toThrow(/^--(dp|enable-expert-parallel): expected a mixture-of-experts model .* a dense model$/);
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });
});
