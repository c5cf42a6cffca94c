import { GrowableFloat64, summarizeUsAsMs } from '@blis/engine/internal';
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

/** The metrics of the completions whose code in `column` (the log's SLO class or tenant column) is `code`. */
export function groupMetrics(log: CompletionLog, column: GrowableFloat64, code: number, durationUs: number, opts: SloTargets): GroupMetrics {
  const ttft = new GrowableFloat64();
  const e2e = new GrowableFloat64();
  let tokens = 0;
  let withTarget = 0;
  let met = 0;
  for (let i = 0; i < column.length; i++) {
    if (column.get(i) !== code) continue;
    const net = log.networkDelayUs.get(i);
    const t = log.ttftUs.get(i) + net;
    const e = log.e2eUs.get(i) + net;
    ttft.push(t);
    e2e.push(e);
    tokens += log.outputTokens.get(i);
    const verdict = meetsTargets(t, e, log.sloTargetUs.get(i), opts);
    if (verdict !== null) {
      withTarget++;
      if (verdict) met++;
    }
  }
  const td = summarizeUsAsMs(ttft.view());
  const ed = summarizeUsAsMs(e2e.view());
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

