import type { SimulationResult } from '@blis/cluster';

/** What a sweep reports when the spec names no metrics. */
export const DEFAULT_SWEEP_METRICS: readonly string[] = ['ttft_p99_ms', 'e2e_p99_ms', 'itl_p99_ms', 'responses_per_sec', 'tokens_per_sec', 'completed_requests'];

/** Numeric fields of the cluster block of a `SimulationResult` (BLIS's names). */
const BLOCK_FIELDS = [
  'completed_requests', 'still_queued', 'still_running', 'injected_requests', 'total_input_tokens', 'total_output_tokens',
  'vllm_estimated_duration_s', 'responses_per_sec', 'tokens_per_sec',
  'e2e_mean_ms', 'e2e_p90_ms', 'e2e_p95_ms', 'e2e_p99_ms', 'ttft_mean_ms', 'ttft_p90_ms', 'ttft_p95_ms', 'ttft_p99_ms',
  'itl_mean_ms', 'itl_p90_ms', 'itl_p95_ms', 'itl_p99_ms', 'scheduling_delay_p99_ms',
  'preemption_count', 'dropped_unservable', 'length_capped_requests', 'timed_out_requests', 'rejected_requests',
  'kv_batch_allocation_failures', 'cache_hit_rate', 'kv_thrashing_rate', 'preemption_rate', 'tenant_fairness_jain',
];

/** Numeric fields one level down, by section; a section absent from a run reads as null. */
const NESTED_FIELDS: Record<string, readonly string[]> = {
  slo_attainment: ['ttft', 'e2e', 'overall', 'goodput_rps', 'requests_with_target'],
  load_fairness: ['jain_index', 'coefficient_of_variation', 'max_min_ratio'],
  fitness: ['score'],
  gateway: ['shed_requests', 'still_queued', 'delay_mean_ms', 'delay_p99_ms'],
  sessions: ['sessions', 'rounds_completed', 'duration_mean_ms', 'duration_p99_ms'],
  autoscaling: ['evaluations', 'scale_up_events', 'scale_down_events', 'replicas_added', 'replicas_drained', 'peak_replicas', 'mean_replicas', 'final_replicas', 'gpu_seconds', 'cost_usd'],
};

/** Fields of one SLO class or tenant (`per_slo_class.<class>.<field>`, `per_tenant.<id>.<field>`). */
const GROUP_FIELDS = ['completed_requests', 'ttft_mean_ms', 'ttft_p50_ms', 'ttft_p90_ms', 'ttft_p99_ms', 'e2e_mean_ms', 'e2e_p50_ms', 'e2e_p90_ms', 'e2e_p99_ms', 'tokens_per_sec', 'slo_attainment'];

/** Every metric name a sweep accepts, for error messages and docs (group metrics as patterns). */
export function knownMetricNames(): string[] {
  return [
    ...BLOCK_FIELDS,
    ...Object.entries(NESTED_FIELDS).flatMap(([s, fs]) => fs.map((f) => `${s}.${f}`)),
    ...GROUP_FIELDS.map((f) => `per_slo_class.<class>.${f}`),
    ...GROUP_FIELDS.map((f) => `per_tenant.<tenant>.${f}`),
  ];
}

/** Why `name` is not a metric a result has, or undefined when it is one. */
export function metricNameProblem(name: string): string | undefined {
  const parts = name.split('.');
  if (parts.length === 1 && BLOCK_FIELDS.includes(name)) return undefined;
  if (parts.length === 2 && NESTED_FIELDS[parts[0]]?.includes(parts[1])) return undefined;
  if (parts.length === 3 && (parts[0] === 'per_slo_class' || parts[0] === 'per_tenant') && parts[1] !== '' && GROUP_FIELDS.includes(parts[2])) return undefined;
  const close = knownMetricNames().filter((k) => k.includes(parts[parts.length - 1]) || name.includes(k));
  return close.length > 0 ? `one of ${close.slice(0, 8).join(', ')}` : 'a numeric field of the result (see docs/sweeps.md): e.g. ttft_p99_ms, slo_attainment.overall, per_slo_class.<class>.e2e_p99_ms';
}

/** The named metrics of a result: a number, or null when the run has no such value (no section, NaN). */
export function extractMetrics(result: SimulationResult, names: readonly string[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const name of names) {
    let v: unknown = result;
    for (const k of name.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    out[name] = typeof v === 'number' && Number.isFinite(v) ? v : null;
  }
  return out;
}
