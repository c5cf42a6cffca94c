import { type Row, groupedBarChart } from '../chart-specs.js';
import type { ReportCell, ReportSection } from '../types.js';
import type { ReportCalibration } from './calibration.js';

const KINDS = [
  ['slo_class', 'SLO class'],
  ['model', 'model'],
] as const;

/**
 * Where the simulator is closer or further from the server, per SLO class and per model: the
 * TTFT and E2E MAPE of each group side by side, and their means. Left out when no calibration
 * has labelled requests.
 */
export function calibrationBreakdownSection(calibrations: readonly ReportCalibration[]): ReportSection | undefined {
  const several = calibrations.length > 1;
  const values: Row[] = [];
  const rows: ReportCell[][] = [];
  for (const { name, report } of calibrations)
    for (const [kind, label] of KINDS) {
      const groups = report.breakdowns?.[kind];
      if (groups === undefined) continue;
      for (const [key, g] of Object.entries(groups)) {
        const group = `${label}: ${key}`;
        values.push({ panel: 'TTFT', group, bar: several ? name : 'MAPE', value: g.ttft_mape }, { panel: 'E2E', group, bar: several ? name : 'MAPE', value: g.e2e_mape });
        rows.push([name, label, key, g.count, g.ttft_mape, g.e2e_mape, g.ttft_real_mean / 1000, g.ttft_sim_mean / 1000, g.e2e_real_mean / 1000, g.e2e_sim_mean / 1000]);
      }
    }
  if (rows.length === 0) return undefined;
  return {
    id: 'calibration-breakdown',
    title: 'Calibration by SLO class and model',
    note: 'From the `breakdowns` of `blis calibrate` reports (BLIS only logs these). MAPE is a fraction; means in ms, client side (network included).',
    charts: [groupedBarChart('calibration-breakdown-mape', 'MAPE by SLO class and model', 'group', 'MAPE', values)],
    table: { columns: ['calibration', 'by', 'group', 'pairs', 'TTFT MAPE', 'E2E MAPE', 'TTFT real (ms)', 'TTFT sim (ms)', 'E2E real (ms)', 'E2E sim (ms)'], rows },
  };
}
