import type { RequestSpec } from '@blis/engine';
import { createRequestSource, parseWorkloadSpec } from '@blis/workload';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planInferencePerf } from '../../src/inference-perf/inference-perf-plan.js';
import { InferencePerfSchema } from '../../src/inference-perf/inference-perf-schema.js';
import { closedLoop, type SectionInput, specOf } from './ip-helpers.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// Generated inference_perf sections (1-3 stages, 1-25 users, lengths 0-300, chat or not), read as
// the CLI reads them and run as a closed loop whose every request leaves 1 ms after it arrives.
// BLIS_PROPERTY_RUNS scales the cases; the run's BLIS_FC_SEED, or else a fresh seed, is printed
// on failure (`BLIS_FC_SEED=<seed> npx vitest run <this file>` replays it).

const RUNS = Number(process.env.BLIS_PROPERTY_RUNS ?? propertyRuns(100));
const SEED = fc.readConfigureGlobal().seed ?? Date.now() | 0;
const DELAY_US = 1000;
/** Cases stay small: at most about this many requests (Σ rate × duration). */
const MAX_REQUESTS = 5000;

const sectionArb: fc.Arbitrary<SectionInput> = fc
  .record({
    stages: fc.array(fc.record({ rate: fc.double({ min: 0.1, max: 20, noNaN: true }), duration: fc.integer({ min: 1, max: 120 }) }), { minLength: 1, maxLength: 3 }),
    shared_prefix: fc.record({
      num_unique_system_prompts: fc.integer({ min: 1, max: 5 }),
      num_users_per_system_prompt: fc.integer({ min: 1, max: 5 }),
      system_prompt_len: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 300 })),
      question_len: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 300 })),
      output_len: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 300 })),
      enable_multi_turn_chat: fc.boolean(),
    }),
  })
  .filter((s) => s.stages.reduce((a, st) => a + st.rate * st.duration, 0) <= MAX_REQUESTS);

/** Whether BLIS refuses the section: a stage it splits into under one request, or a client with none. */
function refusedByBlis(s: SectionInput): boolean {
  const sp = s.shared_prefix;
  const totals = s.stages.map((st) => Math.floor(st.rate * st.duration));
  const mt = sp.enable_multi_turn_chat === true;
  if (s.stages.length > 1 && !mt) return false;
  if (totals.some((t) => t < 1)) return true;
  return s.stages.length === 1 && !mt && totals[0] < sp.num_unique_system_prompts * sp.num_users_per_system_prompt;
}

/** The stage a request's client belongs to (a single stage's ids carry none). */
const stageOf = (r: RequestSpec) => Number(/^stage-(\d+)-/.exec(r.clientId)?.[1] ?? 0);

function check(s: SectionInput, seed: number): void {
  const planned = planInferencePerf(InferencePerfSchema.parse(s));
  expect('issues' in planned).toBe(refusedByBlis(s));
  if ('issues' in planned) return;
  const plan = planned.plan;
  const sp = s.shared_prefix;
  const reqs = closedLoop(createRequestSource(parseWorkloadSpec(specOf(s, seed))), DELAY_US);
  const windows = s.stages.map((_, i) => ({ start: s.stages.slice(0, i).reduce((a, st) => a + st.duration * 1e6, 0), end: s.stages.slice(0, i + 1).reduce((a, st) => a + st.duration * 1e6, 0) }));
  const totals = s.stages.map((st) => Math.floor(st.rate * st.duration));

  // Order, dense indices, unique ids, sizes.
  const ids = new Set<string>();
  let firsts = 0;
  reqs.forEach((r, i) => {
    if (i > 0) expect(r.arrivalUs).toBeGreaterThanOrEqual(reqs[i - 1].arrivalUs);
    expect(r.index).toBe(i);
    ids.add(r.id);
    if (r.roundIndex === 0) expect(r.id).toBe(`request_${firsts++}`);
    // Follow-ups included. With system_prompt_len 0 a first round carries the group's 50-token
    // default prefix and a follow-up none: BLIS's default (eager) generator copies the prefix
    // into follow-ups only when it is positive (GenerateWorkload's PrefixLength > 0 guard).
    const prefix = sp.system_prompt_len > 0 ? sp.system_prompt_len : r.roundIndex > 0 ? 0 : 50;
    expect(r.inputTokens).toBe(prefix + Math.max(1, sp.question_len));
    expect(r.outputTokens).toBe(Math.max(1, sp.output_len));
  });
  expect(ids.size).toBe(reqs.length);

  if (!plan.multiTurn) {
    if (s.stages.length === 1) {
      // BLIS's normalised timer: exactly floor(rate × duration), none past the stage's end.
      expect(reqs).toHaveLength(totals[0]);
      for (const r of reqs) expect(r.arrivalUs).toBeLessThanOrEqual(windows[0].end);
      return;
    }
    // Several stages are Poisson streams clipped to their windows: a stage's count is random, not
    // bounded by floor(rate × duration) (it exceeds it for about half the seeds). It stays within
    // 8 standard deviations of rate × duration.
    s.stages.forEach((st, k) => {
      const mean = st.rate * st.duration;
      const n = reqs.filter((r) => stageOf(r) === k).length;
      expect(n).toBeLessThanOrEqual(mean + 8 * Math.sqrt(mean) + 8);
      expect(n).toBeGreaterThanOrEqual(mean - 8 * Math.sqrt(mean) - 8);
    });
    for (const r of reqs) {
      const w = windows[stageOf(r)];
      expect(r.arrivalUs >= w.start && r.arrivalUs < w.end).toBe(true);
    }
    return;
  }

  // Chat: with no horizon and every round completed, a session sends all its rounds, in order,
  // each a completion plus the think time after the last.
  const byId = new Map(plan.clients.map((c) => [c.id, c]));
  const sessions = new Map<string, RequestSpec[]>();
  for (const r of reqs) sessions.set(r.sessionId, [...(sessions.get(r.sessionId) ?? []), r]);
  for (const rounds of sessions.values()) {
    const c = byId.get(rounds[0].clientId)!;
    expect(rounds.map((r) => r.roundIndex)).toEqual([...Array(c.session!.maxRounds).keys()]);
    if (c.window !== undefined) expect(rounds[0].arrivalUs >= c.window.start && rounds[0].arrivalUs < c.window.end).toBe(true);
    for (let k = 1; k < rounds.length; k++) {
      expect(rounds[k].id).toMatch(new RegExp(`^session_${rounds[0].sessionId}_round_${k}_\\d+$`));
      expect(rounds[k].arrivalUs).toBe(rounds[k - 1].arrivalUs + DELAY_US + c.session!.thinkTimeUs);
    }
  }
  const sum = totals.reduce((a, t) => a + t, 0);
  // A single stage's sessions all start; a later stage's may start past its window and not at all.
  if (s.stages.length === 1) expect(reqs).toHaveLength(sum);
  else expect(reqs.length).toBeLessThanOrEqual(sum);
}

describe('inference-perf stream properties (fast-check)', () => {
  it('holds BLIS\'s generation rules on generated sections', () => {
    const params = { numRuns: RUNS, seed: SEED };
    try {
      fc.assert(
        fc.property(sectionArb, fc.integer(), (s, seed) => check(s, seed)),
        params,
      );
    } catch (e) {
      console.error(`inference-perf stream-properties: fast-check seed ${params.seed} (BLIS_FC_SEED=${params.seed} to replay)`);
      throw e;
    }
  });
});
