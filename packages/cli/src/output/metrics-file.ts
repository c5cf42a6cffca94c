import type { GoodputClassResult, MetricsBlock, RequestRecord, SimulationResult, UnfinishedRequestRecord } from '@blis/cluster';
import type { RequestSpec } from '@blis/engine';

/**
 * BLIS's `MetricsOutput` (sim/metrics_utils.go), the file `blis run|replay --metrics-path` writes
 * and `blis calibrate --sim-metrics` reads: the cluster's aggregate under BLIS's field names in
 * BLIS's order, the KV cache hit rate, and one `RequestMetrics` record per request an instance
 * received, by arrival.
 */
export interface BlisMetricsOutput
  extends Pick<
    MetricsBlock,
    | 'instance_id' | 'completed_requests' | 'still_queued' | 'still_running' | 'injected_requests' | 'total_input_tokens' | 'total_output_tokens'
    | 'vllm_estimated_duration_s' | 'responses_per_sec' | 'tokens_per_sec' | 'e2e_mean_ms' | 'e2e_p90_ms' | 'e2e_p95_ms' | 'e2e_p99_ms'
    | 'ttft_mean_ms' | 'ttft_p90_ms' | 'ttft_p95_ms' | 'ttft_p99_ms' | 'itl_mean_ms' | 'itl_p90_ms' | 'itl_p95_ms' | 'itl_p99_ms'
    | 'scheduling_delay_p99_ms' | 'preemption_count' | 'cache_hit_rate' | 'dropped_unservable' | 'length_capped_requests' | 'timed_out_requests'
  > {
  /** BLIS writes it only when positive (`omitempty`). */
  kv_allocation_failures?: number;
  requests?: BlisRequestMetrics[];
  /** The saturation analysis's final labels (`--detectors`), after the requests as BLIS writes them. */
  saturation?: Record<string, string>;
  /** With goodput thresholds: good requests per second (BLIS omits 0). */
  goodput_rps?: number;
  /** With goodput thresholds: good requests over the gated classes' arrivals (BLIS omits 0). */
  slo_attainment?: number;
  /** With goodput thresholds: per gated class (BLIS's `per_class`). */
  per_class?: Record<string, GoodputClassResult>;
  /** Per LoRA adapter (BLIS's `adapters`), only when the run serves adapters. */
  adapters?: SimulationResult['adapters'];
}

/** BLIS's per-request `RequestMetrics` (times in ms, arrival in seconds). */
export interface BlisRequestMetrics {
  arrived_at: number;
  requestID: string;
  num_prefill_tokens: number;
  num_decode_tokens: number;
  ttft_ms: number;
  itl_ms: number;
  e2e_ms: number;
  scheduling_delay_ms: number;
  slo_class?: string;
  tenant_id?: string;
  handled_by?: string;
  adapter?: string;
  /** With flow control: ms between gateway enqueue and dispatch (BLIS omits 0). */
  gateway_queue_delay_ms?: number;
  session_id?: string;
  round_index: number;
}

/** A request as the run's workload generated it: its session and round, and the SLO class its client named. */
type SpecOf = (id: string) => Pick<RequestSpec, 'sessionId' | 'roundIndex' | 'sloClass'> | undefined;

/**
 * BLIS's `slo_class` (omitted when empty), `tenant_id` (same) and session keys. The class is the
 * one the workload's client named: a request of a client that names none runs as `standard` here
 * (its record says so) while BLIS writes it with none.
 */
function workloadKeys(r: { request_id: string; slo_class?: string; tenant?: string }, of: SpecOf): { slo_class?: string; tenant_id?: string } {
  const cls = of(r.request_id)?.sloClass ?? r.slo_class;
  return { ...(cls ? { slo_class: cls } : {}), ...(r.tenant ? { tenant_id: r.tenant } : {}) };
}

function session(id: string, of: SpecOf): { session_id?: string; round_index: number } {
  const s = of(id);
  return { ...(s?.sessionId ? { session_id: s.sessionId } : {}), round_index: s?.roundIndex ?? 0 };
}

/** BLIS's `arrived_at`: the arrival µs over 1e6 (µs / 1000 / 1000 can differ in the last bit). */
function arrivedAt(arrivalMs: number): number {
  return Math.round(arrivalMs * 1000) / 1e6;
}

/**
 * BLIS's per-request gateway delay: written when non-zero, and (its timestamps reading 0 as
 * unset) not for a request enqueued at t = 0, taken here as one that arrived then.
 */
function gatewayQueueDelay(r: { gateway_delay_ms?: number; arrival_ms: number }): { gateway_queue_delay_ms?: number } {
  const d = r.gateway_delay_ms;
  return d !== undefined && d > 0 && r.arrival_ms > 0 ? { gateway_queue_delay_ms: d } : {};
}

/** Requests flow control took out before or after they reached an instance, and those it still holds. */
function gatewayLeft(r: SimulationResult): number {
  const g = r.gateway;
  return g === null || g === undefined ? 0 : g.shed_requests + g.expired_requests + g.evicted_requests + g.still_queued;
}

/** BLIS names requests `request_<n>`, by trace row or generation order; ours carry the bare number. */
export function blisRequestId(id: string): string {
  return /^\d+$/.test(id) ? `request_${id}` : id;
}

function completedRecord(r: RequestRecord, of: SpecOf): BlisRequestMetrics {
  return {
    arrived_at: arrivedAt(r.arrival_ms),
    requestID: blisRequestId(r.request_id),
    num_prefill_tokens: r.input_tokens,
    num_decode_tokens: r.output_tokens,
    ttft_ms: r.ttft_ms,
    itl_ms: r.itl_ms,
    e2e_ms: r.e2e_ms,
    scheduling_delay_ms: r.scheduling_delay_ms,
    ...workloadKeys(r, of),
    ...(r.handled_by !== '' ? { handled_by: r.handled_by } : {}),
    ...(r.adapter !== undefined ? { adapter: r.adapter } : {}),
    ...gatewayQueueDelay(r),
    ...session(r.request_id, of),
  };
}

/** An unfinished request keeps what it reached (BLIS zeroes what it never had: ITL and E2E need a completion). */
function unfinishedRecord(r: UnfinishedRequestRecord, of: SpecOf): BlisRequestMetrics {
  return {
    arrived_at: arrivedAt(r.arrival_ms),
    requestID: blisRequestId(r.request_id),
    num_prefill_tokens: r.input_tokens,
    num_decode_tokens: r.output_tokens,
    ttft_ms: r.ttft_ms ?? 0,
    itl_ms: 0,
    e2e_ms: 0,
    scheduling_delay_ms: r.scheduling_delay_ms ?? 0,
    ...workloadKeys(r, of),
    handled_by: r.handled_by,
    ...(r.adapter !== undefined ? { adapter: r.adapter } : {}),
    ...gatewayQueueDelay(r),
    ...session(r.request_id, of),
  };
}

/**
 * The metrics file of a run. `cache_hit_rate` is BLIS's cluster figure, the unweighted mean of
 * the instances' rates (ours in the result pools blocks; docs/engine-semantics.md item 7).
 * Requests no instance received (rejected at admission, shed at the gateway) are not in BLIS's
 * per-instance metrics and are left out here too. `specOf` gives a request as the workload made it
 * (BLIS's `session_id`, `round_index`, `slo_class`); without it every request is round 0 of no
 * session, of the class its record gives.
 */
export function blisMetricsOutput(result: SimulationResult, specOf: SpecOf = () => undefined): BlisMetricsOutput {
  const r = result;
  const rates = r.instances.map((i) => i.cache_hit_rate);
  const hitRate = r.blis_mean_rates?.cache_hit_rate ?? (rates.length === 0 ? r.cache_hit_rate : rates.reduce((a, b) => a + b, 0) / rates.length);
  const requests: BlisRequestMetrics[] = [];
  for (const q of r.requests ?? []) requests.push(completedRecord(q, specOf));
  for (const q of r.unfinished_requests ?? []) if (q.handled_by !== '') requests.push(unfinishedRecord(q, specOf));
  // Stable: equal arrivals keep BLIS's request-id order.
  requests.sort((a, b) => a.arrived_at - b.arrived_at || (a.requestID < b.requestID ? -1 : a.requestID > b.requestID ? 1 : 0));
  return {
    instance_id: 'cluster',
    completed_requests: r.completed_requests,
    still_queued: r.still_queued,
    still_running: r.still_running,
    // BLIS counts only requests that reached an instance and stayed: not those the gateway turned away, expired or evicted.
    injected_requests: r.injected_requests - gatewayLeft(r),
    total_input_tokens: r.total_input_tokens,
    total_output_tokens: r.total_output_tokens,
    vllm_estimated_duration_s: r.vllm_estimated_duration_s,
    responses_per_sec: r.responses_per_sec,
    tokens_per_sec: r.tokens_per_sec,
    e2e_mean_ms: r.e2e_mean_ms,
    e2e_p90_ms: r.e2e_p90_ms,
    e2e_p95_ms: r.e2e_p95_ms,
    e2e_p99_ms: r.e2e_p99_ms,
    ttft_mean_ms: r.ttft_mean_ms,
    ttft_p90_ms: r.ttft_p90_ms,
    ttft_p95_ms: r.ttft_p95_ms,
    ttft_p99_ms: r.ttft_p99_ms,
    itl_mean_ms: r.itl_mean_ms,
    itl_p90_ms: r.itl_p90_ms,
    itl_p95_ms: r.itl_p95_ms,
    itl_p99_ms: r.itl_p99_ms,
    scheduling_delay_p99_ms: r.scheduling_delay_p99_ms,
    // BLIS omits a zero count (omitempty).
    ...(r.kv_allocation_failures !== 0 ? { kv_allocation_failures: r.kv_allocation_failures } : {}),
    preemption_count: r.preemption_count,
    cache_hit_rate: hitRate,
    dropped_unservable: r.dropped_unservable,
    length_capped_requests: r.length_capped_requests,
    timed_out_requests: r.timed_out_requests,
    ...(requests.length > 0 ? { requests } : {}),
    ...(r.saturation !== undefined ? { saturation: r.saturation } : {}),
    ...goodputFields(r),
    ...(r.adapters !== undefined ? { adapters: r.adapters } : {}),
  };
}

/** BLIS's goodput fields (`omitempty`: a 0 rate or attainment is left out), after `saturation`. */
function goodputFields(r: SimulationResult): Pick<BlisMetricsOutput, 'goodput_rps' | 'slo_attainment' | 'per_class'> {
  const g = r.goodput;
  if (g === undefined) return {};
  return { ...(g.goodput_rps !== 0 ? { goodput_rps: g.goodput_rps } : {}), ...(g.slo_attainment !== 0 ? { slo_attainment: g.slo_attainment } : {}), per_class: g.per_class };
}
