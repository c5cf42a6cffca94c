import { type Row, groupedBarChart } from '../chart-specs.js';
import type { ReportCell, ReportSection } from '../types.js';

/** The part of one metric's comparison in a `blis calibrate` report that the section draws (times in µs, as BLIS writes them). */
export interface CalibrationMetricView {
  count: number;
  workload_level: CalibrationAggregates;
  request_level: { mape: number; pearson_r: number; bias_direction: string; quality: string };
}

/** The real and simulated figures the section draws, of one metric. */
export interface CalibrationAggregates {
  real_mean?: number;
  sim_mean?: number;
  real_p50?: number;
  sim_p50?: number;
  real_p90?: number;
  sim_p90?: number;
  real_p99?: number;
  sim_p99?: number;
}

/**
 * A `blis calibrate --report` file, as far as the report reads it (field names as BLIS writes
 * them; `@blis/observe`'s `CalibrationReport` has this shape).
 */
export interface CalibrationView {
  trace_info: { matched_pairs: number; warm_up_excluded: number; num_requests: number };
  metrics: { ttft?: CalibrationMetricView; e2e?: CalibrationMetricView; itl?: CalibrationMetricView };
  hit_rate?: { real_hit_rate: number; sim_hit_rate: number; within: boolean };
  /** Per SLO class and per model, when the report has them (ours; BLIS writes none). */
  breakdowns?: { slo_class?: Record<string, CalibrationBreakdownView>; model?: Record<string, CalibrationBreakdownView> };
}

/** One group of a calibrate report's `breakdowns` (times in µs). */
export interface CalibrationBreakdownView {
  count: number;
  ttft_mape: number;
  e2e_mape: number;
  ttft_real_mean: number;
  ttft_sim_mean: number;
  e2e_real_mean: number;
  e2e_sim_mean: number;
}

/** One calibration to report on, under the name its chart and table use. */
export interface ReportCalibration {
  name: string;
  report: CalibrationView;
}

const METRICS = [
  ['ttft', 'TTFT'],
  ['e2e', 'E2E'],
  ['itl', 'ITL'],
] as const;
const FIGURES = ['mean', 'p50', 'p90', 'p99'] as const;

/**
 * How far the simulator was from the real server: per metric the real and simulated mean and
 * percentiles side by side, and a table of BLIS's request-level grades (MAPE, Pearson r, bias).
 */
export function calibrationSection(calibrations: readonly ReportCalibration[]): ReportSection | undefined {
  if (calibrations.length === 0) return undefined;
  const several = calibrations.length > 1;
  const values: Row[] = [];
  const rows: ReportCell[][] = [];
  for (const { name, report } of calibrations)
    for (const [key, label] of METRICS) {
      const m = report.metrics[key];
      if (m === undefined) continue;
      for (const side of ['real', 'sim'] as const)
        for (const f of FIGURES) {
          const v = m.workload_level[`${side}_${f}` as keyof CalibrationAggregates];
          if (v !== undefined) values.push({ panel: label, group: f, bar: several ? `${name}: ${side}` : side, value: ms(v) });
        }
      const q = m.request_level;
      rows.push([name, label, m.count, q.mape, q.pearson_r, q.bias_direction, q.quality, msOrNull(m.workload_level.real_p99), msOrNull(m.workload_level.sim_p99)]);
    }
  const hit = calibrations.filter((c) => c.report.hit_rate !== undefined);
  const hitNote =
    hit.length === 0 ? '' : ` KV hit rate, real vs simulated: ${hit.map((c) => `${c.name} ${pct(c.report.hit_rate!.real_hit_rate)} vs ${pct(c.report.hit_rate!.sim_hit_rate)}${c.report.hit_rate!.within ? '' : ' (outside tolerance)'}`).join('; ')}.`;
  const pairs = calibrations.map((c) => `${c.name}: ${c.report.trace_info.matched_pairs} pairs, ${c.report.trace_info.warm_up_excluded} warm-up excluded`).join('; ');
  return {
    id: 'calibration',
    title: 'Calibration against a real server',
    note: `From \`blis calibrate\` reports (${pairs}). Times in ms (the reports' µs / 1000); MAPE is a fraction; grades are BLIS's (excellent, good, fair, poor).${hitNote}`,
    charts: values.length === 0 ? [] : [groupedBarChart('calibration-latency', 'Real vs simulated latency', 'figure', 'ms', values)],
    table: { columns: ['calibration', 'metric', 'pairs', 'MAPE', 'Pearson r', 'bias', 'grade', 'real p99 (ms)', 'sim p99 (ms)'], rows },
  };
}

const ms = (us: number) => us / 1000;
const msOrNull = (us: number | undefined) => (us === undefined ? null : ms(us));

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}
