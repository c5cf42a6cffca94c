import { type Row, groupedBarChart } from '../chart-specs.js';
import type { ReportCell, ReportRun, ReportSection } from '../types.js';

/** Instance ids in first-seen order over the runs. */
export function instanceIds(runs: readonly ReportRun[], idsOf: (run: ReportRun) => readonly string[]): string[] {
  const seen = new Set<string>();
  for (const run of runs) for (const id of idsOf(run)) seen.add(id);
  return [...seen];
}

/** Requests routed to each instance (`target_distribution`), per run. */
export function routingSection(runs: readonly ReportRun[]): ReportSection | undefined {
  const withTargets = runs.filter((r) => r.result.target_distribution && Object.keys(r.result.target_distribution).length > 0);
  if (withTargets.length === 0) return undefined;
  const ids = instanceIds(withTargets, (r) => Object.keys(r.result.target_distribution));
  const values: Row[] = [];
  const rows: ReportCell[][] = ids.map((id) => [id, ...withTargets.map((r) => r.result.target_distribution[id] ?? null)]);
  for (const id of ids)
    for (const r of withTargets) {
      const n = r.result.target_distribution[id];
      if (n !== undefined) values.push({ group: id, bar: r.name, value: n });
    }
  const fairness = withTargets.map((r) => `${r.name}: Jain ${fmt(r.result.load_fairness?.jain_index)}`).join(', ');
  return {
    id: 'routing',
    title: 'Routing distribution',
    note: `Requests routed to each instance (target_distribution). Load fairness ${fairness}.`,
    charts: [groupedBarChart('routing-distribution', 'Requests routed per instance', 'instance', 'requests routed', values)],
    table: { columns: ['instance', ...withTargets.map((r) => r.name)], rows },
  };
}

function fmt(x: number | undefined): string {
  return x === undefined ? 'n/a' : x.toFixed(4);
}
