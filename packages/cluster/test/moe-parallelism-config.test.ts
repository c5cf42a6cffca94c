import { createHash } from 'node:crypto';
import { BlackboxLatencyModel } from '@blis/latency';
import { describe, expect, it } from 'vitest';
import { SimulationConfigSchema, simulate } from '../src/index.js';

// Issue 38: the library's DP/EP fields, validated by the config schema (zod) before anything runs.

const MOE = { model: 'qwen/qwen3-30b-a3b', hardware: 'H100', tp: 1, totalKVBlocks: 20000, workload: { kind: 'synthetic' as const, rate: 50, numRequests: 40 } };
const issues = (input: object) => {
  const r = SimulationConfigSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('SimulationConfig dp, enableExpertParallel, moeCommBackend', () => {
  it('default to DP 1, EP off, no backend', () => {
    const c = SimulationConfigSchema.parse({});
    expect([c.dp, c.enableExpertParallel, c.moeCommBackend]).toEqual([1, false, undefined]);
  });

  it('refuse a DP below 1 or not whole, and a backend vLLM does not know', () => {
    expect(issues({ dp: 0 })[0]).toMatch(/^dp: /);
    expect(issues({ dp: 1.5 })[0]).toMatch(/^dp: /);
    expect(issues({ dp: 2, moeCommBackend: 'nccl' })[0]).toMatch(/^moeCommBackend: /);
  });

  it('refuse a backend at DP 1 and an all-to-all one without EP', () => {
    expect(issues({ moeCommBackend: 'naive' })).toEqual([
      'moeCommBackend: expected dp > 1 (dispatch/combine runs only between data-parallel ranks; at dp 1 the MoE output is all-reduced over TP), found dp 1',
    ]);
    expect(issues({ dp: 2, moeCommBackend: 'mori' })).toEqual([
      'moeCommBackend: expected enableExpertParallel with mori (vLLM runs its all-to-all kernels only with expert parallelism; without it, naive or allgather_reducescatter), found enableExpertParallel false',
    ]);
    expect(issues({ dp: 2, enableExpertParallel: true, moeCommBackend: 'mori' })).toEqual([]);
  });

  it('refuse DP/EP beside a latency model other than trained-physics', () => {
    expect(issues({ dp: 2, latencyModel: 'roofline' })).toEqual([
      'latencyModel: expected trained-physics with dp, enableExpertParallel or moeCommBackend (the only latency model with data/expert-parallel terms), found roofline',
    ]);
  });

  it('refuse a dense model when the model is resolved, before any request runs', () => {
    expect(() => simulate({ ...MOE, model: 'qwen/qwen3-14b', dp: 2 })).toThrow(/^--dp: expected a mixture-of-experts model/);
  });

  it('refuse DP beside a latency model handed in at run time (it has no DP terms)', () => {
    expect(() => simulate({ ...MOE, dp: 2 }, { latency: new BlackboxLatencyModel([0, 0, 0], [1000, 1, 1]) })).toThrow(/^dp: expected dp 1/);
  });

  it('DP 1 without EP given explicitly is the run without them, byte for byte', () => {
    expect(JSON.stringify(simulate({ ...MOE, dp: 1, enableExpertParallel: false }))).toBe(JSON.stringify(simulate(MOE)));
  });

  it('DP changes an MoE run', () => {
    expect(simulate({ ...MOE, dp: 2 }).e2e_mean_ms).not.toBe(simulate(MOE).e2e_mean_ms);
  });
});

describe('DP 1 without EP: the same bytes as before DP/EP existed', () => {
  // sha256 of JSON.stringify(simulate(config)) at f311ae4, the commit before the DP/EP fields,
  // and after them with the fields absent and set to their defaults. Only a change meant to move
  // results (engine, latency, result fields) should need new hashes.
  const BEFORE: [string, object, string][] = [
    ['qwen3-30b-a3b TP 2', { model: 'qwen/qwen3-30b-a3b', hardware: 'H100', tp: 2, numInstances: 2, workload: { kind: 'synthetic', rate: 80, numRequests: 500 }, includeRequests: true }, '1f8ca371334a2b270c85d5bfaeffdc50fb3c1165f4d4ec17d43cbb9aed1cf9ed'],
    ['mixtral-8x7b TP 2', { model: 'mixtral-8x7b-v0.1', hardware: 'H100', tp: 2, numInstances: 1, workload: { kind: 'synthetic', rate: 20, numRequests: 300 }, includeRequests: true }, '934a55bf9d85f9a7af052a29b6bdc8a1c1c92a10f35bee6285dd27596c4d7400'],
    ['llama-3.1-8b', { model: 'meta-llama/llama-3.1-8b-instruct', numInstances: 2, workload: { kind: 'synthetic', rate: 40, numRequests: 500 }, includeRequests: true }, '60842b63c16e6f628aaf981b29ab68dbefc38a0b0c89e0fef239d3d7bef7b583'],
  ];
  const sha = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
  it.each(BEFORE)('%s', (_name, config, hash) => {
    expect(sha(simulate(config))).toBe(hash);
    expect(sha(simulate({ ...config, dp: 1, enableExpertParallel: false }))).toBe(hash);
  });
});
