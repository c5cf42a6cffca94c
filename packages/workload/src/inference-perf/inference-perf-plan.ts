import { MAX_INFERENCE_PERF_REQUESTS, MAX_SPEC_CLIENTS } from '../request-limits.js';
import type { InferencePerfSection, InferencePerfStage } from './inference-perf-schema.js';

/**
 * How one expanded client draws its arrivals, as BLIS builds its sampler:
 * - `poisson`: exponential gaps at `ratePerUs`, drawn from the client's own stream;
 * - `normalized`: BLIS's port of inference-perf's normalised exponential timer, `count` gaps
 *   drawn up front from a sub-stream and scaled to sum to `durationUs`.
 */
export type IpSampler = { kind: 'poisson'; ratePerUs: number } | { kind: 'normalized'; count: number; durationUs: number };

/** One client of the expansion (BLIS's ClientSpec as ExpandInferencePerfSpec fills it). */
export interface IpClient {
  id: string;
  /** `prompt-<p>`: the tenant and the shared prefix group. */
  group: string;
  /** The stage the client sends in. */
  stage: number;
  sampler: IpSampler;
  /** BLIS seeds a sub-stream for a custom sampler factory (one draw from the client's stream). */
  customFactory: boolean;
  /** Active window `[start, end)` µs, multi-stage only. */
  window?: { start: number; end: number };
  /** Closed-loop single session (multi-turn chat): rounds and the pause between them. */
  session?: { maxRounds: number; thinkTimeUs: number };
}

export interface IpPlan {
  clients: IpClient[];
  /** Prompt tokens in front of every question: the group's system prompt (50 when it is 0, as in BLIS). */
  prefixLength: number;
  /**
   * The prefix of a multi-turn session's later rounds. BLIS's default (eager) generator copies
   * the group prefix into follow-ups only when `system_prompt_len` is positive, so with 0 the
   * first round carries the 50-token default prefix and later rounds none.
   */
  followUpPrefixLength: number;
  questionLength: number;
  outputLength: number;
  /** Sum of the stage rates (BLIS's aggregate rate). */
  aggregateRate: number;
  /** Requests the stages ask for (rate × duration summed; Poisson stages send about that many). */
  plannedRequests: number;
  multiTurn: boolean;
}

/** BLIS's prefix length for a group whose clients give 0. */
export const IP_DEFAULT_PREFIX_LENGTH = 50;

/**
 * Expands the section into clients exactly as BLIS does (client order, ids, rates, windows,
 * rounds and think times), since the order decides which random draws each client gets.
 * Problems are returned, located under `inference_perf`.
 */
/** A problem of the section: where (a path under the spec), what was expected and found. */
export interface IpIssue {
  path: (string | number)[];
  expected: string;
  found: string;
}

export function planInferencePerf(ip: InferencePerfSection): { plan: IpPlan } | { issues: IpIssue[] } {
  const sp = ip.shared_prefix;
  const perStage = sp.num_unique_system_prompts * sp.num_users_per_system_prompt;
  const issues: IpIssue[] = [];
  // Checked before anything is built: the section is a few lines, its expansion can be billions.
  const clientCount = perStage * ip.stages.length;
  if (clientCount > MAX_SPEC_CLIENTS)
    return {
      issues: [
        {
          path: ['inference_perf', 'shared_prefix'],
          expected: `at most ${MAX_SPEC_CLIENTS} clients (system prompts × users per prompt × ${ip.stages.length} stage${ip.stages.length === 1 ? '' : 's'})`,
          found: `${sp.num_unique_system_prompts} × ${sp.num_users_per_system_prompt} × ${ip.stages.length} = ${clientCount}`,
        },
      ],
    };
  const planned = ip.stages.reduce((a, s) => a + s.rate * s.duration, 0);
  if (planned > MAX_INFERENCE_PERF_REQUESTS)
    return { issues: [{ path: ['inference_perf', 'stages'], expected: `at most ${MAX_INFERENCE_PERF_REQUESTS} requests over all stages (rate × duration)`, found: String(Math.round(planned)) }] };
  // BLIS refuses a stage under one request only where it splits the count: a single stage, or
  // every stage's session rounds. A later stage without sessions is plain Poisson, so it passes.
  const counted = ip.stages.length === 1 || sp.enable_multi_turn_chat;
  const totals = ip.stages.map((s, i) => {
    const total = Math.floor(s.rate * s.duration);
    if (counted && total < 1) issues.push({ path: ['inference_perf', 'stages', i], expected: 'rate × duration of at least 1 request', found: `${s.rate} × ${s.duration} s = ${s.rate * s.duration}` });
    return total;
  });
  if (issues.length > 0) return { issues };
  const clients: IpClient[] = [];
  const multiTurn = sp.enable_multi_turn_chat;
  const each = (fn: (p: number, u: number, k: number) => void) => {
    let k = 0;
    for (let p = 0; p < sp.num_unique_system_prompts; p++) for (let u = 0; u < sp.num_users_per_system_prompt; u++) fn(p, u, k++);
  };
  if (ip.stages.length === 1) {
    const stage = ip.stages[0];
    const shares = evenShares(totals[0], perStage);
    // Single stage: no window; the rate fraction 1/N of the stage rate, normalised over N clients.
    const ratePerUs = (stage.rate * ((1 / perStage) / sumOfFractions(perStage))) / 1e6;
    each((p, u, k) => {
      const base = { id: `prompt-${p}-user-${u}`, group: `prompt-${p}`, stage: 0 };
      if (multiTurn) {
        clients.push({ ...base, sampler: { kind: 'poisson', ratePerUs }, customFactory: false, session: { maxRounds: shares[k], thinkTimeUs: thinkTime(stage, perStage) } });
        return;
      }
      if (shares[k] <= 0)
        issues.push({ path: ['inference_perf', 'shared_prefix'], expected: `at most ${totals[0]} users (rate × duration requests, one or more each)`, found: `${perStage} users` });
      clients.push({ ...base, sampler: { kind: 'normalized', count: shares[k], durationUs: stage.duration * 1e6 }, customFactory: true });
    });
  } else {
    let offset = 0;
    ip.stages.forEach((stage, s) => {
      const window = { start: offset, end: offset + stage.duration * 1e6 };
      offset = window.end;
      const ratePerUs = stage.rate / perStage / 1e6;
      const shares = evenShares(totals[s], perStage);
      each((p, u, k) => {
        const client: IpClient = { id: `stage-${s}-prompt-${p}-user-${u}`, group: `prompt-${p}`, stage: s, sampler: { kind: 'poisson', ratePerUs }, customFactory: true, window };
        if (multiTurn) client.session = { maxRounds: shares[k], thinkTimeUs: thinkTime(stage, perStage) };
        clients.push(client);
      });
    });
  }
  if (issues.length > 0) return { issues: issues.slice(0, 1) };
  return {
    plan: {
      clients,
      prefixLength: sp.system_prompt_len > 0 ? sp.system_prompt_len : IP_DEFAULT_PREFIX_LENGTH,
      followUpPrefixLength: sp.system_prompt_len,
      // BLIS's constant length sampler never gives less than 1 token.
      questionLength: Math.max(1, sp.question_len),
      outputLength: Math.max(1, sp.output_len),
      aggregateRate: ip.stages.reduce((a, s) => a + s.rate, 0),
      plannedRequests: Math.round(planned),
      multiTurn,
    },
  };
}

/** BLIS's think time between rounds: N sessions cycling at the stage rate, `floor(N / rate × 1e6)` µs. */
function thinkTime(stage: InferencePerfStage, sessions: number): number {
  return Math.trunc((sessions / stage.rate) * 1e6);
}

/** `total` split over `n` so the first `total mod n` get one more (BLIS's distributeRequestsEvenly). */
export function evenShares(total: number, n: number): number[] {
  const base = Math.floor(total / n);
  const rest = total % n;
  return Array.from({ length: n }, (_, i) => base + (i < rest ? 1 : 0));
}

/** The sum of N fractions of 1/N, added in order as BLIS's normalisation adds them. */
function sumOfFractions(n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += 1 / n;
  return sum;
}
