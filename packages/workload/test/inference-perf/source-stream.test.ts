import { createRequestSource, parseWorkloadSpec } from '@blis/workload';
import { InferencePerfSource } from '@blis/workload/internal';
import { describe, expect, it } from 'vitest';
import { drain } from '../../src/testing/index.js';
import { CHAT_TWO_STAGES, closedLoop, planOf, section, specOf } from './ip-helpers.js';

// InferencePerfSource as a request stream, reached as the CLI reaches it (parseWorkloadSpec then
// createRequestSource): request ids, the num_requests cut, determinism, prompt sizes.

const ONE_SHOT = section([{ rate: 4, duration: 25 }, { rate: 10, duration: 5 }], { num_unique_system_prompts: 2, num_users_per_system_prompt: 2 });

describe('InferencePerfSource stream', () => {
  it('comes from createRequestSource for an inference_perf spec', () => {
    expect(createRequestSource(parseWorkloadSpec(specOf(ONE_SHOT, 1)))).toBeInstanceOf(InferencePerfSource);
  });

  it('is open-loop without multi-turn chat, closed-loop with it (RequestSource.openLoop)', () => {
    expect(new InferencePerfSource(planOf(ONE_SHOT), { seed: 1, blockSizeTokens: 16 }).openLoop).toBe(true);
    const chat = planOf(section([{ rate: 4, duration: 30 }], { num_users_per_system_prompt: 3, enable_multi_turn_chat: true }));
    expect(new InferencePerfSource(chat, { seed: 1, blockSizeTokens: 16 }).openLoop).toBe(false);
  });

  it('names first arrivals request_<n> in arrival order, indexes them densely', () => {
    const reqs = drain(createRequestSource(parseWorkloadSpec(specOf(ONE_SHOT, 3))));
    expect(reqs.length).toBeGreaterThan(50);
    reqs.forEach((r, i) => {
      expect(r.id).toBe(`request_${i}`);
      expect(r.index).toBe(i);
      if (i > 0) expect(r.arrivalUs).toBeGreaterThanOrEqual(reqs[i - 1].arrivalUs);
    });
  });

  it('numbers a chat\'s first rounds request_<n> too, its follow-ups apart', () => {
    const reqs = closedLoop(createRequestSource(parseWorkloadSpec(specOf(CHAT_TWO_STAGES, 42))));
    const first = reqs.filter((r) => r.roundIndex === 0);
    expect(first.map((r) => r.id)).toEqual(first.map((_, i) => `request_${i}`));
    expect(reqs.filter((r) => r.roundIndex > 0).every((r) => r.id.startsWith(`session_${r.sessionId}_round_${r.roundIndex}_`))).toBe(true);
  });

  it('keeps the earliest num_requests requests', () => {
    const all = drain(createRequestSource(parseWorkloadSpec(specOf(ONE_SHOT, 8))));
    const cut = drain(createRequestSource(parseWorkloadSpec(specOf(ONE_SHOT, 8, { num_requests: 17 }))));
    expect(cut).toEqual(all.slice(0, 17));
    // The run's own cap (--num-requests) wins over the spec's, as for any spec.
    const capped = drain(createRequestSource(parseWorkloadSpec(specOf(ONE_SHOT, 8, { num_requests: 17 })), { maxRequests: 5 }));
    expect(capped).toEqual(all.slice(0, 5));
  });

  it('repeats itself for one seed; another seed (spec or option) moves the arrivals', () => {
    const arrivals = (seed: number, opt?: number) => drain(createRequestSource(parseWorkloadSpec(specOf(ONE_SHOT, seed)), opt !== undefined ? { seed: opt } : {})).map((r) => r.arrivalUs);
    expect(arrivals(21)).toEqual(arrivals(21));
    expect(arrivals(22)).not.toEqual(arrivals(21));
    expect(arrivals(21, 22)).toEqual(arrivals(22));
  });

  it('gives every request the system prompt plus the question, and the answer length', () => {
    const reqs = drain(new InferencePerfSource(planOf(ONE_SHOT), { seed: 1, blockSizeTokens: 16 }));
    for (const r of reqs) {
      // section(): system prompt 10, question 20, answer 5.
      expect(r.inputTokens).toBe(30);
      expect(r.outputTokens).toBe(5);
      expect(r.prefixLength).toBe(10);
      expect(r.tenantId).toBe(r.prefixGroup);
      expect(r.clientId.endsWith(`-${r.prefixGroup}-user-0`) || r.clientId.endsWith(`-${r.prefixGroup}-user-1`)).toBe(true);
      // Not a session: no session id, no deadline unless --timeout.
      expect(r.sessionId).toBe('');
      expect(r.deadlineUs).toBe(0);
    }
  });
});
