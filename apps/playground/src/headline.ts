import type { SimulationResult } from '@blis/cluster';

/** The headline numbers: element id suffix, label, result field, decimals shown. */
export const HEADLINE: readonly { id: string; label: string; field: keyof SimulationResult & string; digits: number }[] = [
  { id: 'completed', label: 'Completed requests', field: 'completed_requests', digits: 0 },
  { id: 'injected', label: 'Injected requests', field: 'injected_requests', digits: 0 },
  { id: 'ttft-mean', label: 'TTFT mean (ms)', field: 'ttft_mean_ms', digits: 2 },
  { id: 'ttft-p99', label: 'TTFT p99 (ms)', field: 'ttft_p99_ms', digits: 2 },
  { id: 'e2e-mean', label: 'E2E mean (ms)', field: 'e2e_mean_ms', digits: 2 },
  { id: 'e2e-p99', label: 'E2E p99 (ms)', field: 'e2e_p99_ms', digits: 2 },
  { id: 'itl-mean', label: 'ITL mean (ms)', field: 'itl_mean_ms', digits: 3 },
  { id: 'throughput', label: 'Output tokens/s', field: 'tokens_per_sec', digits: 1 },
  { id: 'responses', label: 'Responses/s', field: 'responses_per_sec', digits: 2 },
  { id: 'duration', label: 'Simulated duration (s)', field: 'vllm_estimated_duration_s', digits: 3 },
  { id: 'cache-hit', label: 'Prefix cache hit rate', field: 'cache_hit_rate', digits: 3 },
  { id: 'preemptions', label: 'Preemptions', field: 'preemption_count', digits: 0 },
  { id: 'timed-out', label: 'Timed out', field: 'timed_out_requests', digits: 0 },
];

/**
 * A table of the headline numbers. Each value cell has the id `<prefix>-<id>` and carries the
 * exact number in `data-value` (the text is rounded), so a test can compare it with `simulate()`.
 */
export function headlineTable(result: SimulationResult, prefix = 'result'): HTMLTableElement {
  const table = document.createElement('table');
  table.className = 'headline';
  for (const h of HEADLINE) {
    const row = table.insertRow();
    const th = document.createElement('th');
    th.textContent = h.label;
    row.append(th);
    row.append(valueCell(result[h.field], h.digits, `${prefix}-${h.id}`));
  }
  return table;
}

/** A cell showing a rounded number, the exact one in `data-value`. */
export function valueCell(v: unknown, digits: number, id?: string): HTMLTableCellElement {
  const td = document.createElement('td');
  if (id !== undefined) td.id = id;
  if (typeof v === 'number') {
    td.dataset.value = String(v);
    td.textContent = v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  } else td.textContent = '—';
  return td;
}
