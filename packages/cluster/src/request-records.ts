import type { SimRequest } from '@blis/engine';
import type { ClusterSimulator } from './cluster-simulator.js';
import type { RequestOutcome } from './request-outcomes.js';

/**
 * Per-request record of a completed request, written under `requests` by `--results-path`
 * (BLIS's requests.csv columns, then ours).
 */
export interface RequestRecord {
  request_id: string;
  arrival_ms: number;
  input_tokens: number;
  output_tokens: number;
  handled_by: string;
  ttft_ms: number;
  itl_ms: number;
  e2e_ms: number;
  scheduling_delay_ms: number;
  cache_hit_blocks: number;
  preemptions: number;
  /** The request's SLO class and tenant ("" when none): not BLIS columns, for per-class breakdowns (ours always has them). */
  slo_class?: string;
  tenant?: string;
  /** With flow control: ms it waited at the gateway between enqueue and dispatch. */
  gateway_delay_ms?: number;
  /** Always `completed` here; the other outcomes are in {@link UnfinishedRequestRecord}. */
  outcome?: 'completed';
  /** Simulated time it completed. */
  left_ms?: number;
  /** The LoRA adapter that served it; present only for adapter requests of a run serving adapters. */
  adapter?: string;
}

/**
 * Record of an injected request that did not complete, written under `unfinished_requests`: with
 * `requests`, a result file accounts for every request the run received, each exactly once.
 */
export interface UnfinishedRequestRecord {
  request_id: string;
  arrival_ms: number;
  input_tokens: number;
  output_tokens: number;
  /** The instance that last held the request; "" when it never reached one. */
  handled_by: string;
  /** null when the request produced no first token. */
  ttft_ms: number | null;
  /** null when the request was never scheduled. */
  scheduling_delay_ms: number | null;
  cache_hit_blocks: number;
  preemptions: number;
  slo_class: string;
  tenant: string;
  /** With flow control, once dispatched: ms it waited at the gateway. */
  gateway_delay_ms?: number;
  outcome: Exclude<RequestOutcome, 'completed'>;
  /** Simulated time it left; null when the run ended first. */
  left_ms: number | null;
  /** The LoRA adapter it asked for; present only when it asked for one. */
  adapter?: string;
}

/** The completed requests' records, in the order they completed. */
export function requestRecords(sim: ClusterSimulator): RequestRecord[] {
  const log = sim.log;
  const records: RequestRecord[] = new Array(log.ttftUs.length);
  for (let i = 0; i < log.ttftUs.length; i++) {
    records[i] = {
      request_id: log.ids[i] ?? '',
      arrival_ms: log.arrivalUs.get(i) / 1000,
      input_tokens: log.inputTokens.get(i),
      output_tokens: log.outputTokens.get(i),
      handled_by: sim.instances[log.instance.get(i)].config.id,
      ttft_ms: log.ttftUs.get(i) / 1000,
      itl_ms: log.itlUs.get(i) / 1000,
      e2e_ms: log.e2eUs.get(i) / 1000,
      scheduling_delay_ms: log.schedulingDelayUs.get(i) / 1000,
      cache_hit_blocks: log.cacheHitBlocks.get(i),
      preemptions: log.preemptions.get(i),
      slo_class: sim.sloNames.names[log.sloClass.get(i)] ?? '',
      tenant: sim.tenantNames.names[log.tenant.get(i)] ?? '',
      ...gatewayDelay(sim, log.ids[i]),
      outcome: 'completed',
      left_ms: log.completionUs.get(i) / 1000,
    };
    const a = log.adapter.length > i ? log.adapter.get(i) : -1;
    if (a >= 0) records[i].adapter = log.adapterNames.names[a];
  }
  return records;
}

/**
 * The other injected requests' records: those that left early in the order they left, then
 * those still in the system when the run ended, by arrival order.
 */
export function unfinishedRecords(sim: ClusterSimulator): UnfinishedRequestRecord[] {
  const records: UnfinishedRequestRecord[] = [];
  for (const l of sim.left ?? []) records.push(unfinishedRecord(sim, l.req, l.outcome, l.atUs));
  const live: [SimRequest, boolean][] = [];
  sim.forEachLive((req, running) => live.push([req, running]));
  live.sort((a, b) => a[0].spec.index - b[0].spec.index);
  for (const [req, running] of live) records.push(unfinishedRecord(sim, req, running ? 'still_running' : 'still_queued', undefined));
  return records;
}

function unfinishedRecord(sim: ClusterSimulator, req: SimRequest, outcome: UnfinishedRequestRecord['outcome'], atUs: number | undefined): UnfinishedRequestRecord {
  const spec = req.spec;
  return {
    request_id: spec.id,
    arrival_ms: spec.arrivalUs / 1000,
    input_tokens: req.inputTokens,
    output_tokens: req.outputTokens,
    handled_by: req.instance >= 0 && req.instance < sim.instances.length ? sim.instances[req.instance].config.id : '',
    ttft_ms: req.ttft >= 0 ? req.ttft / 1000 : null,
    scheduling_delay_ms: req.scheduledAt >= 0 ? (req.scheduledAt - spec.arrivalUs) / 1000 : null,
    cache_hit_blocks: req.cacheHitBlocks,
    preemptions: req.preemptions,
    slo_class: spec.sloClass,
    tenant: spec.tenantId,
    ...gatewayDelay(sim, spec.id),
    outcome,
    left_ms: atUs === undefined ? null : atUs / 1000,
    ...(spec.adapter !== undefined && spec.adapter !== '' ? { adapter: spec.adapter } : {}),
  };
}

/** The gateway wait of a dispatched request, when flow control is on. */
function gatewayDelay(sim: ClusterSimulator, id: string | undefined): { gateway_delay_ms?: number } {
  const us = id === undefined ? undefined : sim.flow?.delays.get(id);
  return us === undefined ? {} : { gateway_delay_ms: us / 1000 };
}
