import { describe, expect, it } from 'vitest';
import { evenShares } from '../../src/inference-perf/inference-perf-plan.js';
import { CHAT_TWO_STAGES, planOf, section } from './ip-helpers.js';

// BLIS's ExpandInferencePerfSpec on worked examples. Every expected number is worked out by hand
// in the comment beside it, from BLIS's rules (sim/workload/inference_perf.go), not by running
// the code under test.

describe('evenShares (BLIS distributeRequestsEvenly)', () => {
  it('gives the first `total mod n` one more', () => {
    // 10 = 3 × 3 + 1: base 3, one remainder for the first.
    expect(evenShares(10, 3)).toEqual([4, 3, 3]);
    // 7 = 4 × 1 + 3: base 1, three remainders.
    expect(evenShares(7, 4)).toEqual([2, 2, 2, 1]);
    // Fewer requests than clients: base 0, the first two get one.
    expect(evenShares(2, 4)).toEqual([1, 1, 0, 0]);
    expect(evenShares(12, 4)).toEqual([3, 3, 3, 3]);
  });
});

describe('two stages, multi-turn chat (the golden experiments\' section)', () => {
  const plan = planOf(CHAT_TWO_STAGES);
  const stage0 = plan.clients.filter((c) => c.stage === 0);
  const stage1 = plan.clients.filter((c) => c.stage === 1);

  it('has 9 × 5 = 45 clients per stage, 90 in all, ids stage-s-prompt-p-user-u in prompt-major order', () => {
    expect(plan.clients).toHaveLength(90);
    expect(stage0).toHaveLength(45);
    expect(stage1).toHaveLength(45);
    // Index k = 5p + u within a stage: k 0 → (0, 0), k 4 → (0, 4), k 5 → (1, 0), k 44 → (8, 4).
    expect(plan.clients[0].id).toBe('stage-0-prompt-0-user-0');
    expect(plan.clients[4].id).toBe('stage-0-prompt-0-user-4');
    expect(plan.clients[5].id).toBe('stage-0-prompt-1-user-0');
    expect(plan.clients[44].id).toBe('stage-0-prompt-8-user-4');
    expect(plan.clients[45].id).toBe('stage-1-prompt-0-user-0');
    expect(plan.clients[89].id).toBe('stage-1-prompt-8-user-4');
    expect(plan.clients[7].group).toBe('prompt-1');
    expect(plan.clients[89].group).toBe('prompt-8');
  });

  it('gives stage s the window [600e6·s, 600e6·(s+1)) µs', () => {
    // 600 s = 600,000,000 µs; stage 1 starts where stage 0 ends.
    for (const c of stage0) expect(c.window).toEqual({ start: 0, end: 600_000_000 });
    for (const c of stage1) expect(c.window).toEqual({ start: 600_000_000, end: 1_200_000_000 });
  });

  it('splits floor(rate × duration) rounds over the 45 sessions of each stage', () => {
    // Stage 0: 2.5 × 600 = 1500 = 45 × 33 + 15: the first 15 sessions get 34 rounds, the other 30 get 33.
    expect(stage0.map((c) => c.session?.maxRounds)).toEqual([...Array(15).fill(34), ...Array(30).fill(33)]);
    // Check: 15 × 34 + 30 × 33 = 510 + 990 = 1500.
    // Stage 1: 6 × 600 = 3600 = 45 × 80: 80 rounds each.
    expect(stage1.map((c) => c.session?.maxRounds)).toEqual(Array(45).fill(80));
  });

  it('pauses N / rate seconds between rounds: 18,000,000 µs then 7,500,000 µs', () => {
    // 45 / 2.5 = 18 s; 45 / 6 = 7.5 s.
    for (const c of stage0) expect(c.session?.thinkTimeUs).toBe(18_000_000);
    for (const c of stage1) expect(c.session?.thinkTimeUs).toBe(7_500_000);
  });

  it('draws Poisson gaps at rate / 45 per second, per µs, through a custom sampler factory', () => {
    // BLIS: perClientRate := stage.Rate / float64(numClientsPerStage) / 1e6, in that order.
    for (const c of stage0) expect(c.sampler).toEqual({ kind: 'poisson', ratePerUs: 2.5 / 45 / 1e6 });
    for (const c of stage1) expect(c.sampler).toEqual({ kind: 'poisson', ratePerUs: 6 / 45 / 1e6 });
    // A multi-stage client's sampler comes from a factory, which costs one draw of its stream.
    expect(plan.clients.every((c) => c.customFactory)).toBe(true);
  });

  it('keeps the lengths as written and sums the stage rates', () => {
    expect(plan.prefixLength).toBe(100);
    expect(plan.questionLength).toBe(447);
    expect(plan.outputLength).toBe(248);
    // 2.5 + 6.
    expect(plan.aggregateRate).toBe(8.5);
    expect(plan.multiTurn).toBe(true);
  });
});

describe('one stage', () => {
  it('without multi-turn: a normalised sampler per client with its even share, over the whole stage, no window', () => {
    // 2.5 × 13 = 32.5 → 32 requests over 2 × 3 = 6 clients: 32 = 6 × 5 + 2 → [6, 6, 5, 5, 5, 5].
    const plan = planOf(section([{ rate: 2.5, duration: 13 }], { num_unique_system_prompts: 2, num_users_per_system_prompt: 3 }));
    expect(plan.clients.map((c) => c.id)).toEqual(['prompt-0-user-0', 'prompt-0-user-1', 'prompt-0-user-2', 'prompt-1-user-0', 'prompt-1-user-1', 'prompt-1-user-2']);
    // 13 s = 13,000,000 µs.
    expect(plan.clients.map((c) => c.sampler)).toEqual([6, 6, 5, 5, 5, 5].map((count) => ({ kind: 'normalized', count, durationUs: 13_000_000 })));
    for (const c of plan.clients) {
      expect(c.window).toBeUndefined();
      expect(c.session).toBeUndefined();
      // The normalised sampler is built by a factory, as in BLIS.
      expect(c.customFactory).toBe(true);
    }
    expect(plan.multiTurn).toBe(false);
  });

  it('with multi-turn: a plain Poisson session start at rate / N, no window, no factory', () => {
    // 4 × 30 = 120 rounds over 1 × 3 = 3 sessions: 40 each; think 3 / 4 s = 750,000 µs.
    const plan = planOf(section([{ rate: 4, duration: 30 }], { num_users_per_system_prompt: 3, enable_multi_turn_chat: true }));
    expect(plan.clients.map((c) => c.id)).toEqual(['prompt-0-user-0', 'prompt-0-user-1', 'prompt-0-user-2']);
    for (const c of plan.clients) {
      expect(c.window).toBeUndefined();
      expect(c.customFactory).toBe(false);
      expect(c.session).toEqual({ maxRounds: 40, thinkTimeUs: 750_000 });
      // Each client's fraction 1/3 normalised over three: 4 req/s / 3 = 1.333… per s = 1.333…e-6 per µs.
      expect(c.sampler.kind).toBe('poisson');
      if (c.sampler.kind === 'poisson') expect(c.sampler.ratePerUs).toBeCloseTo(4 / 3 / 1e6, 20);
    }
  });
});

describe('multi-stage without multi-turn', () => {
  it('gives every client its stage\'s window and Poisson rate, and no session', () => {
    // Windows: [0, 10e6), [10e6, 30e6), [30e6, 35e6) µs; rates 1/2, 3/2, 8/2 per s over 2 clients each.
    const plan = planOf(section([{ rate: 1, duration: 10 }, { rate: 3, duration: 20 }, { rate: 8, duration: 5 }], { num_users_per_system_prompt: 2 }));
    expect(plan.clients.map((c) => [c.id, c.window, c.sampler])).toEqual([
      ['stage-0-prompt-0-user-0', { start: 0, end: 10_000_000 }, { kind: 'poisson', ratePerUs: 1 / 2 / 1e6 }],
      ['stage-0-prompt-0-user-1', { start: 0, end: 10_000_000 }, { kind: 'poisson', ratePerUs: 1 / 2 / 1e6 }],
      ['stage-1-prompt-0-user-0', { start: 10_000_000, end: 30_000_000 }, { kind: 'poisson', ratePerUs: 3 / 2 / 1e6 }],
      ['stage-1-prompt-0-user-1', { start: 10_000_000, end: 30_000_000 }, { kind: 'poisson', ratePerUs: 3 / 2 / 1e6 }],
      ['stage-2-prompt-0-user-0', { start: 30_000_000, end: 35_000_000 }, { kind: 'poisson', ratePerUs: 8 / 2 / 1e6 }],
      ['stage-2-prompt-0-user-1', { start: 30_000_000, end: 35_000_000 }, { kind: 'poisson', ratePerUs: 8 / 2 / 1e6 }],
    ]);
    expect(plan.clients.every((c) => c.session === undefined)).toBe(true);
    // 1 + 3 + 8.
    expect(plan.aggregateRate).toBe(12);
  });
});

describe('lengths of 0', () => {
  it('a 0-token system prompt is BLIS\'s default 50-token prefix', () => {
    expect(planOf(section([{ rate: 1, duration: 10 }], { system_prompt_len: 0 })).prefixLength).toBe(50);
  });

  it('a 0-token question or answer is 1 token (BLIS\'s constant sampler never gives less)', () => {
    const plan = planOf(section([{ rate: 1, duration: 10 }], { question_len: 0, output_len: 0 }));
    expect(plan.questionLength).toBe(1);
    expect(plan.outputLength).toBe(1);
  });
});
