import { estimateTokens } from '@blis/trace';
import type { RunMetrics } from './scenario-metrics.js';

/** Tokens (≈ 4 characters each) the whole feedback of one scenario may take. */
export const FEEDBACK_MAX_TOKENS = 1500;

const f1 = (v: number) => (Math.round(v * 10) / 10).toString();
const msOf = (us: number) => `${f1(us / 1000)} ms`;
const pct = (v: number) => `${Math.round(v * 1000) / 10}%`;

export interface FeedbackInput {
  id: string;
  seeds: readonly number[];
  metrics: Record<string, number>;
  present: RunMetrics['present'];
  features: Record<string, number>;
  slo: { ttft_us?: number; e2e_us?: number } | undefined;
  objectiveScores: Record<string, number>;
  weights: Record<string, number>;
  score: number;
  /** The decision-trace summary of the scenario's first seed, when traced. */
  traceSummary?: string;
}

/**
 * The compact text a reflecting LLM reads: what happened against the targets, then what the
 * decision trace says about why. The trace summary fills what is left of the budget.
 */
export function scenarioFeedback(x: FeedbackInput): string {
  const m = x.metrics;
  const lines: string[] = [];
  lines.push(
    `Scenario ${x.id} (${x.seeds.length === 1 ? `seed ${x.seeds[0]}` : `mean of seeds ${x.seeds.join(', ')}`}): ${f1(m.completed_requests)}/${f1(m.injected_requests)} requests completed (${pct(m.completion_rate)}).`,
  );
  const vs = (us: number, target: number | undefined) => (target !== undefined && target > 0 ? ` vs SLO ${msOf(target)}${us > target ? ' (missed)' : ''}` : '');
  lines.push(
    `TTFT p99 ${msOf(m.p99_ttft_us)}${vs(m.p99_ttft_us, x.slo?.ttft_us)}, mean ${msOf(m.mean_ttft_us)}; E2E p99 ${msOf(m.p99_e2e_us)}${vs(m.p99_e2e_us, x.slo?.e2e_us)}; ITL p99 ${msOf(m.p99_itl_us)}.`,
  );
  lines.push(
    `Throughput ${f1(m.throughput_rps)} req/s, ${f1(m.tokens_per_sec)} tok/s${x.present.slo_attainment ? `; SLO attainment ${pct(m.slo_attainment)}, goodput ${f1(m.goodput_rps)} req/s` : ''}.`,
  );
  lines.push(
    `Preemptions ${f1(m.preemptions)}; prefix-cache hit rate ${pct(m.cache_hit_rate)}; rejected ${f1(m.routing_rejections)}, timed out ${f1(m.timed_out_requests)}, dropped unservable ${f1(m.dropped_unservable)}.`,
  );
  if (x.present.pd)
    lines.push(`P/D: ${pct(x.features.disagg_fraction)} disaggregated; KV transfer p99 ${msOf(m.pd_transfer_p99_us)}; prefill/decode throughput imbalance ${f1(m.pd_load_imbalance)}.`);
  if (x.present.autoscaling) lines.push(`Autoscaling: mean ${f1(x.features.mean_replicas)} replicas, ${f1(m.replica_seconds)} replica-s, $${(Math.round(m.cost_usd * 100) / 100).toFixed(2)}.`);
  if (m.invariant_violations > 0) lines.push(`INVARIANT VIOLATED in ${f1(m.invariant_violations)} run(s): the score is 0.`);
  const objectives = Object.entries(x.objectiveScores).map(([k, v]) => `${k} ${v.toPrecision(3)} (weight ${x.weights[k]})`);
  lines.push(`Objectives: ${objectives.join(', ')}; scenario score ${x.score.toPrecision(4)}.`);
  let text = lines.join('\n');
  if (x.traceSummary !== undefined && x.traceSummary !== '') {
    const room = (FEEDBACK_MAX_TOKENS - estimateTokens(text) - 10) * 4;
    if (room > 200) text += `\nDecision trace:\n${x.traceSummary.length > room ? `${x.traceSummary.slice(0, room - 1)}…` : x.traceSummary}`;
  }
  return text;
}
