import type { CalibrationOutcome } from './calibrate.js';
import type { BreakdownSummary } from './breakdowns.js';

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
}

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => pad(r, widths));
}

const us = (v: number) => v.toFixed(0);
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

function breakdownLines(title: string, by: Readonly<Record<string, BreakdownSummary>> | undefined): string[] {
  if (by === undefined) return [];
  const rows = [[title, 'n', 'TTFT MAPE', 'E2E MAPE']];
  for (const [key, b] of Object.entries(by)) rows.push([key, String(b.count), pct(b.ttft_mape), pct(b.e2e_mape)]);
  return ['', ...table(rows)];
}

/**
 * The report as a readable text table: one row per metric (means and percentiles in µs, real /
 * simulated), then the verdicts, then per-class and per-model MAPE.
 */
export function formatReportTable(outcome: CalibrationOutcome): string {
  const { report, pairs } = outcome;
  const t = report.trace_info;
  const lines = [
    `requests ${t.num_requests}: ${t.matched_pairs} matched, ${t.warm_up_excluded} warm-up excluded, ${pairs.unmatchedReal} unmatched real, ${pairs.unmatchedSim} unmatched sim, ${t.token_mismatches} token mismatches${t.itl_dropped !== undefined ? `, ${t.itl_dropped} ITL dropped` : ''}`,
    `network: RTT ${outcome.networkRttUs} µs added to simulated TTFT and E2E; warm-up ${outcome.warmUpRequests}`,
    '',
  ];
  const rows = [['metric (µs, real/sim)', 'n', 'mean', 'p50', 'p90', 'p99', 'MAPE', 'r', 'bias', 'grade']];
  for (const name of ['ttft', 'e2e', 'itl'] as const) {
    const m = report.metrics[name];
    if (m === undefined) continue;
    const w = m.workload_level;
    const q = m.request_level;
    rows.push([
      name.toUpperCase(),
      String(m.count),
      `${us(w.real_mean)}/${us(w.sim_mean)}`,
      `${us(w.real_p50)}/${us(w.sim_p50)}`,
      `${us(w.real_p90)}/${us(w.sim_p90)}`,
      `${us(w.real_p99)}/${us(w.sim_p99)}`,
      pct(q.mape),
      q.pearson_r.toFixed(3),
      q.bias_direction === '' ? '-' : q.bias_direction,
      q.quality,
    ]);
  }
  lines.push(...table(rows), '');
  const tol = report.ttft_tolerance;
  if (tol !== undefined) lines.push(`TTFT MAPE ${pct(tol.mape)} (threshold ${pct(tol.threshold)}): ${tol.within ? 'WITHIN' : 'EXCEEDS'}`);
  const hr = report.hit_rate;
  if (hr !== undefined)
    lines.push(`KV hit rate (${hr.source}): real ${hr.real_hit_rate.toFixed(4)}, sim ${hr.sim_hit_rate.toFixed(4)}, error ${hr.abs_error_pp.toFixed(2)} pp (tolerance ${hr.tolerance_pp} pp): ${hr.within ? 'WITHIN' : 'EXCEEDS'}`);
  if (report.goodput !== undefined) {
    const g = [['goodput class', 'n', 'real attain', 'sim attain', 'real rps', 'sim rps']];
    for (const [cls, c] of Object.entries(report.goodput.per_class))
      g.push([cls, String(c.count), c.real_slo_attainment.toFixed(3), c.sim_slo_attainment.toFixed(3), c.real_goodput_rps.toFixed(3), c.sim_goodput_rps.toFixed(3)]);
    lines.push('', ...table(g));
  }
  lines.push(...breakdownLines('SLO class', report.breakdowns?.slo_class), ...breakdownLines('model', report.breakdowns?.model));
  return `${lines.join('\n')}\n`;
}
