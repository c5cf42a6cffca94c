import type { KvTierCounters, MetricsBlock } from '@blis/cluster';
import { type Row, groupedBarChart } from '../chart-specs.js';
import type { ReportCell, ReportRun, ReportSection } from '../types.js';

const COUNTERS: readonly (keyof KvTierCounters & string)[] = [
  'mirrored_blocks',
  'reloaded_blocks',
  'cpu_evictions',
  'tier_misses',
  'mirror_skipped',
  'promotions_fired',
  'promotions_failed',
  'deferrals',
];
const CHARTED: readonly (keyof KvTierCounters & string)[] = ['mirrored_blocks', 'reloaded_blocks', 'cpu_evictions', 'tier_misses'];

/** What the KV tiers (CPU mirror or offload chain) did, per instance and pooled for the cluster. */
export function kvTiersSection(runs: readonly ReportRun[]): ReportSection | undefined {
  const several = runs.length > 1;
  const values: Row[] = [];
  const rows: ReportCell[][] = [];
  for (const run of runs) {
    const blocks: MetricsBlock[] = [...(run.result.instances ?? []), run.result];
    for (const b of blocks) {
      const t = b.kv_tiers;
      if (!t) continue;
      rows.push([
        run.name,
        b.instance_id,
        t.model,
        t.cpu_capacity_blocks,
        b.cache_hit_rate,
        b.kv_thrashing_rate ?? null,
        ...COUNTERS.map((c) => t[c] as number),
        t.secondary_writes.join(' / '),
        t.transfer_latency_us,
      ]);
      if (b.instance_id === 'cluster') continue;
      const group = several ? `${run.name} · ${b.instance_id}` : b.instance_id;
      for (const c of CHARTED) values.push({ group, bar: c, value: t[c] as number });
    }
  }
  if (rows.length === 0) return undefined;
  return {
    id: 'kv-tiers',
    title: 'KV cache tiers',
    note: 'From kv_tiers on each instance block and the cluster block (pooled). The hit rate counts CPU reloads as hits and tier misses as misses.',
    charts: [groupedBarChart('kv-tier-blocks', 'KV tier block movements per instance', 'instance', 'blocks', values)],
    table: {
      columns: ['run', 'instance', 'model', 'cpu_capacity_blocks', 'cache_hit_rate', 'kv_thrashing_rate', ...COUNTERS, 'secondary_writes', 'transfer_latency_us'],
      rows,
    },
  };
}
