import { describe, expect, it } from 'vitest';
import { type CalibrationView, reportSections } from '../src/index.js';
import { calibrationBreakdownSection } from '../src/sections/calibration-breakdown.js';
import { calibrationSection } from '../src/sections/calibration.js';

// A calibrate report in µs, as `blis calibrate --report` writes it (BLIS's CAL-1 TTFTs: real
// 100..400 µs, simulated 90, 210, 330, 380).
const view: CalibrationView = {
  trace_info: { num_requests: 5, warm_up_excluded: 1, matched_pairs: 4 },
  metrics: {
    ttft: {
      count: 4,
      workload_level: { real_mean: 250, sim_mean: 252.5, real_p50: 250, sim_p50: 270, real_p90: 370, sim_p90: 365, real_p99: 397, sim_p99: 378.5 },
      request_level: { mape: 0.0725, pearson_r: 0.98533, bias_direction: 'over-predict', quality: 'excellent' },
    },
  },
  hit_rate: { real_hit_rate: 0.7, sim_hit_rate: 0.76, within: false },
};

describe('calibration section', () => {
  it('draws real against simulated figures in ms and tables the grades', () => {
    const s = calibrationSection([{ name: 'cal', report: view }])!;
    expect(s.id).toBe('calibration');
    const values = (s.charts[0].spec as { data: { values: unknown[] } }).data.values;
    // 2 sides × 4 figures of the one metric present, µs / 1000.
    expect(values).toHaveLength(8);
    expect(values).toContainEqual({ panel: 'TTFT', group: 'mean', bar: 'real', value: 0.25 });
    expect(values).toContainEqual({ panel: 'TTFT', group: 'p99', bar: 'sim', value: 0.3785 });
    expect(s.table!.rows).toEqual([['cal', 'TTFT', 4, 0.0725, 0.98533, 'over-predict', 'excellent', 0.397, 0.3785]]);
    expect(s.note).toContain('cal: 4 pairs, 1 warm-up excluded');
    expect(s.note).toContain('KV hit rate, real vs simulated: cal 70.0% vs 76.0% (outside tolerance)');
  });

  it('names each calibration in its bars when there are several, and comes first among the sections', () => {
    const s = calibrationSection([
      { name: 'a', report: view },
      { name: 'b', report: view },
    ])!;
    const bars = new Set((s.charts[0].spec as { data: { values: { bar: string }[] } }).data.values.map((v) => v.bar));
    expect([...bars]).toEqual(['a: real', 'a: sim', 'b: real', 'b: sim']);
    expect(calibrationSection([])).toBeUndefined();
    expect(reportSections([], [{ name: 'a', report: view }]).map((x) => x.id)).toEqual(['calibration']);
  });

  it('draws the per-class and per-model MAPE of a report with breakdowns, after the grades', () => {
    const critical = { count: 2, ttft_mape: 0.1, e2e_mape: 0.25, ttft_real_mean: 150, ttft_sim_mean: 145, e2e_real_mean: 1500, e2e_sim_mean: 1750 };
    const withClasses: CalibrationView = { ...view, breakdowns: { slo_class: { critical } } };
    const s = calibrationBreakdownSection([{ name: 'cal', report: withClasses }])!;
    expect((s.charts[0].spec as { data: { values: unknown[] } }).data.values).toEqual([
      { panel: 'TTFT', group: 'SLO class: critical', bar: 'MAPE', value: 0.1 },
      { panel: 'E2E', group: 'SLO class: critical', bar: 'MAPE', value: 0.25 },
    ]);
    expect(s.table!.rows).toEqual([['cal', 'SLO class', 'critical', 2, 0.1, 0.25, 0.15, 0.145, 1.5, 1.75]]);
    expect(calibrationBreakdownSection([{ name: 'cal', report: view }])).toBeUndefined();
    expect(reportSections([], [{ name: 'cal', report: withClasses }]).map((x) => x.id)).toEqual(['calibration', 'calibration-breakdown']);
  });
});
