import { type GrowableFloat64, summarizeUsAsMs } from '@blis/engine/internal';
import type { Distribution } from '@blis/engine';
import type { CompletionLog } from './completion-log.js';
import { type SloTargets, meetsTargets } from './slo-attainment.js';

/** Latency summary of one group of requests (an SLO class or a tenant), client-observed. */
export interface GroupMetrics {
  completed_requests: number;
  ttft_mean_ms: number;
  ttft_p50_ms: number;
  ttft_p90_ms: number;
  ttft_p99_ms: number;
  e2e_mean_ms: number;
  e2e_p50_ms: number;
  e2e_p90_ms: number;
  e2e_p99_ms: number;
  tokens_per_sec: number;
  slo_attainment: number | null;
}

/** Summaries of the whole log's TTFT and E2E columns, which the cluster block has computed. */
export interface WholeLogLatencies {
  ttft: Distribution;
  e2e: Distribution;
}

/**
 * The metrics of the completions whose code in `column` (the log's SLO class or tenant column)
 * is `code`. When the group is every completion and none has a network delay, its latencies are
 * the log's own: `whole`, when given, is used rather than summarised again.
 */
export function groupMetrics(log: CompletionLog, column: GrowableFloat64, code: number, durationUs: number, opts: SloTargets, whole?: WholeLogLatencies): GroupMetrics {
  // The columns' typed views, read directly: this runs over every completion once per group.
  const codes = column.view();
  const ttftUs = log.ttftUs.view();
  const e2eUs = log.e2eUs.view();
  const netUs = log.networkDelayUs.view();
  const outputTokens = log.outputTokens.view();
  const sloTargetUs = log.sloTargetUs.view();
  let size = 0;
  for (let i = 0; i < codes.length; i++) if (codes[i] === code) size++;
  const ttft = new Float64Array(size);
  const e2e = new Float64Array(size);
  let count = 0;
  let tokens = 0;
  let withTarget = 0;
  let met = 0;
  let delayed = false;
  for (let i = 0; i < codes.length; i++) {
    if (codes[i] !== code) continue;
    const net = netUs[i];
    if (net !== 0) delayed = true;
    const t = ttftUs[i] + net;
    const e = e2eUs[i] + net;
    ttft[count] = t;
    e2e[count++] = e;
    tokens += outputTokens[i];
    const verdict = meetsTargets(t, e, sloTargetUs[i], opts);
    if (verdict !== null) {
      withTarget++;
      if (verdict) met++;
    }
  }
  // x + 0 is x (a -0 turns 0, which no reported figure tells apart).
  const same = whole !== undefined && size === codes.length && !delayed;
  const td = same ? whole.ttft : summarizeUsAsMs(ttft);
  const ed = same ? whole.e2e : summarizeUsAsMs(e2e);
  return {
    completed_requests: ttft.length,
    ttft_mean_ms: td.mean,
    ttft_p50_ms: td.p50,
    ttft_p90_ms: td.p90,
    ttft_p99_ms: td.p99,
    e2e_mean_ms: ed.mean,
    e2e_p50_ms: ed.p50,
    e2e_p90_ms: ed.p90,
    e2e_p99_ms: ed.p99,
    tokens_per_sec: durationUs > 0 ? tokens / (durationUs / 1e6) : 0,
    slo_attainment: withTarget === 0 ? null : met / withTarget,
  };
}

