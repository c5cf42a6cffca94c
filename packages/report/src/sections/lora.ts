import { type Row, groupedBarChart } from '../chart-specs.js';
import type { ReportCell, ReportRun, ReportSection } from '../types.js';

/** Per LoRA adapter: its cold loads and evictions over the instances, its TTFT and throughput. */
export function loraSection(runs: readonly ReportRun[]): ReportSection | undefined {
  const several = runs.length > 1;
  const loads: Row[] = [];
  const rows: ReportCell[][] = [];
  for (const run of runs) {
    for (const [id, a] of Object.entries(run.result.adapters ?? {})) {
      rows.push([run.name, id, a.load_count, a.eviction_count, a.ttft_p50_us, a.ttft_p99_us, a.throughput_tok_per_s]);
      const group = several ? `${run.name} · ${id}` : id;
      loads.push({ group, bar: 'loads', value: a.load_count }, { group, bar: 'evictions', value: a.eviction_count });
    }
  }
  if (rows.length === 0) return undefined;
  return {
    id: 'lora',
    title: 'LoRA adapters',
    note: 'From the adapters block: loads and evictions summed over instances; TTFT (µs) and output tokens/s of each adapter’s completed requests.',
    charts: [groupedBarChart('lora-loads', 'Cold loads and evictions per adapter', 'adapter', 'count', loads)],
    table: { columns: ['run', 'adapter', 'load_count', 'eviction_count', 'ttft_p50_us', 'ttft_p99_us', 'throughput_tok_per_s'], rows },
  };
}
