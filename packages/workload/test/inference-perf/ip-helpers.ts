import type { RequestOutcome, RequestSource, RequestSpec } from '@blis/engine';
import type { z } from 'zod';
import { type IpPlan, planInferencePerf } from '../../src/inference-perf/inference-perf-plan.js';
import { InferencePerfSchema } from '../../src/inference-perf/inference-perf-schema.js';

/** An `inference_perf` section as written in a spec (defaults not yet filled in). */
export type SectionInput = z.input<typeof InferencePerfSchema>;

/**
 * The two-stage multi-turn chat section of BLIS's trained-physics and roofline golden
 * experiments (9 system prompts × 5 users, 2.5 then 6 requests/s for 600 s each).
 */
export const CHAT_TWO_STAGES: SectionInput = {
  stages: [
    { rate: 2.5, duration: 600 },
    { rate: 6, duration: 600 },
  ],
  shared_prefix: { num_unique_system_prompts: 9, num_users_per_system_prompt: 5, system_prompt_len: 100, question_len: 447, output_len: 248, enable_multi_turn_chat: true },
};

/** A small section: `stages` and any `shared_prefix` fields over a 1 × 1, 10/20/5-token default. */
export function section(stages: SectionInput['stages'], sp: Partial<SectionInput['shared_prefix']> = {}): SectionInput {
  return {
    stages,
    shared_prefix: { num_unique_system_prompts: 1, num_users_per_system_prompt: 1, system_prompt_len: 10, question_len: 20, output_len: 5, ...sp },
  };
}

/** The plan of a valid section; fails the test when the section is refused. */
export function planOf(input: SectionInput): IpPlan {
  const r = planInferencePerf(InferencePerfSchema.parse(input));
  if ('issues' in r) throw new Error(`section refused: ${JSON.stringify(r.issues)}`);
  return r.plan;
}

/** The shared `v2` spec object around a section, for parseWorkloadSpec. */
export function specOf(input: SectionInput, seed: number, extra: Record<string, unknown> = {}) {
  return { version: '2', seed, ...extra, inference_perf: input };
}

/**
 * Drives a source as a closed loop whose every request leaves `delayUs` after it arrives, with
 * `outcomeOf` deciding how (completed unless told). Arrivals are emitted in order, so requests
 * leave in emission order and a queue holds them. A leaving at the same µs as an arrival comes
 * first, as a follow-up it makes may be due then.
 */
export function closedLoop(source: RequestSource, delayUs = 1000, outcomeOf: (r: RequestSpec) => RequestOutcome = () => 'completed', maxRequests = 1_000_000): RequestSpec[] {
  const out: RequestSpec[] = [];
  const leaving: RequestSpec[] = [];
  let head = 0;
  for (;;) {
    const next = source.peekArrivalUs();
    if (head < leaving.length && leaving[head].arrivalUs + delayUs <= next) {
      const r = leaving[head++];
      source.onRequestDone?.(r, r.arrivalUs + delayUs, outcomeOf(r));
      continue;
    }
    if (next === Number.POSITIVE_INFINITY) return out;
    const r = source.next();
    if (r === undefined) throw new Error(`peekArrivalUs gave ${next} but next() gave nothing`);
    out.push(r);
    leaving.push(r);
    if (out.length > maxRequests) throw new Error(`more than ${maxRequests} requests`);
  }
}
