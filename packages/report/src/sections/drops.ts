import type { MetricsBlock } from '@blis/cluster';
import { type Row, groupedBarChart } from '../chart-specs.js';
import type { ReportCell, ReportRun, ReportSection } from '../types.js';

const COUNTERS: readonly { key: keyof MetricsBlock & string; label: string }[] = [
  { key: 'preemption_count', label: 'preemptions' },
  { key: 'dropped_unservable', label: 'dropped (unservable)' },
  { key: 'timed_out_requests', label: 'timed out' },
  { key: 'rejected_requests', label: 'rejected' },
];

/**
 * Preemptions, unservable drops, time-outs per instance, and the cluster's rejections (admission
 * and gateway shedding happen before routing, so only the cluster block counts them).
 */
export function dropsSection(runs: readonly ReportRun[]): ReportSection | undefined {
  const withInstances = runs.filter((r) => Array.isArray(r.result.instances) && r.result.instances.length > 0);
  if (withInstances.length === 0) return undefined;
  const several = runs.length > 1;
  const values: Row[] = [];
  const rows: ReportCell[][] = [];
  for (const run of withInstances) {
    const blocks: MetricsBlock[] = [...run.result.instances, run.result];
    for (const b of blocks) {
      const cells = COUNTERS.map((c) => (typeof b[c.key] === 'number' ? (b[c.key] as number) : null));
      rows.push([run.name, b.instance_id, ...cells]);
      const group = several ? `${run.name} · ${b.instance_id}` : b.instance_id;
      COUNTERS.forEach((c, i) => {
        const v = cells[i];
        // Instances never reject; a zero bar there says nothing.
        if (v !== null && !(c.key === 'rejected_requests' && b.instance_id !== 'cluster')) values.push({ group, bar: c.label, value: v });
      });
    }
  }
  const total = values.reduce((s, v) => s + (v.value as number), 0);
  return {
    id: 'drops',
    title: 'Preemptions and drops',
    note:
      total === 0
        ? 'No request was preempted, dropped, timed out or rejected.'
        : 'Per instance: preemption_count, dropped_unservable, timed_out_requests; rejected_requests is counted by the cluster (admission and gateway shedding).',
    charts: [groupedBarChart('drops-per-instance', 'Preemptions and drops per instance', 'instance', 'count', values)],
    table: { columns: ['run', 'instance', ...COUNTERS.map((c) => c.key)], rows },
  };
}
