import { writeFileSync } from 'node:fs';
import type { TraceObservedKVMetrics } from '@blis/workload';
import { TRACEV2_COLUMNS, csvField } from '@blis/workload/internal';
import { stringify } from 'yaml';
import type { ObservedRecord } from './observed-record.js';

/** Per-class goodput targets in ms, as BLIS's header keeps them (a zero dimension is left out). */
export interface GoodputTargets {
  ttft_ms?: number;
  itl_ms?: number;
  e2e_ms?: number;
}

/** What the `mode: real` header says besides the records. */
export interface RealTraceHeader {
  /** RFC 3339 UTC, whole seconds. */
  createdAt: string;
  warmUpRequests: number;
  /** The spec's seed, when the workload came from a spec, a preset or flags. */
  workloadSeed?: number;
  /** The spec's path, or `preset:<name>`. */
  workloadSpec?: string;
  serverType: string;
  model: string;
  measuredRttMs: number;
  goodputSloTargets?: Readonly<Record<string, GoodputTargets>>;
  observedKvMetrics?: TraceObservedKVMetrics;
}

/** The header YAML, keys in BLIS's order; empty optional blocks are left out as its omitempty does. */
export function realTraceHeaderYaml(h: RealTraceHeader): string {
  const doc: Record<string, unknown> = { trace_version: 3, time_unit: 'us', created_at: h.createdAt, mode: 'real', warm_up_requests: h.warmUpRequests };
  if (h.workloadSeed !== undefined) doc.workload_seed = h.workloadSeed;
  if (h.workloadSpec !== undefined && h.workloadSpec !== '') doc.workload_spec = h.workloadSpec;
  doc.server = { ...(h.serverType !== '' ? { type: h.serverType } : {}), ...(h.model !== '' ? { model: h.model } : {}) };
  doc.network = h.measuredRttMs > 0 ? { measured_rtt_ms: h.measuredRttMs } : {};
  const targets = Object.entries(h.goodputSloTargets ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (targets.length > 0) doc.goodput_slo_targets = Object.fromEntries(targets);
  if (h.observedKvMetrics !== undefined) doc.observed_kv_metrics = h.observedKvMetrics;
  return stringify(doc);
}

/**
 * The data CSV in BLIS's layout: the 27 columns, `vllm_priority` after `slo_class` when any
 * record has an SLO class or a priority, `slo_target_us` after `deadline_us` when any record has
 * a target, and `x_request_id` last when any record has one. `input_tokens` is the part behind
 * the prefix; timestamps are integers. Rows in request_id order.
 */
export function realTraceCsv(records: readonly ObservedRecord[]): string {
  const sorted = [...records].sort((a, b) => a.requestId - b.requestId);
  const withPriority = sorted.some((r) => r.vllmPriority !== 0 || r.sloClass !== '');
  const withSloTarget = sorted.some((r) => r.sloTargetUs > 0);
  const withRequestId = sorted.some((r) => r.xRequestId !== '');
  const columns: string[] = [];
  for (const c of TRACEV2_COLUMNS) {
    columns.push(c);
    if (c === 'slo_class' && withPriority) columns.push('vllm_priority');
    if (c === 'deadline_us' && withSloTarget) columns.push('slo_target_us');
  }
  if (withRequestId) columns.push('x_request_id');
  let out = `${columns.join(',')}\n`;
  for (const r of sorted) {
    // A prompt shorter than its group's prefix (never generated) is written whole, without a prefix.
    const own = r.inputTokens - r.prefixLength;
    const [prefixLength, inputTokens] = own >= 0 ? [r.prefixLength, own] : [0, r.inputTokens];
    const row: (string | number | boolean)[] = [r.requestId, r.clientId, r.tenantId, r.sloClass];
    if (withPriority) row.push(r.vllmPriority);
    row.push(r.sessionId, r.roundIndex, r.prefixGroup, prefixLength, r.streaming, inputTokens, r.outputTokens, 0, 0, 0, 0, 0, '', r.deadlineUs);
    if (withSloTarget) row.push(r.sloTargetUs);
    row.push(r.serverInputTokens, r.arrivalTimeUs, r.sendTimeUs, r.firstChunkTimeUs, r.lastChunkTimeUs, r.numChunks, r.status, r.errorMessage, r.finishReason);
    if (withRequestId) row.push(r.xRequestId);
    out += `${row.map((v) => csvField(typeof v === 'number' ? Math.trunc(v) : v)).join(',')}\n`;
  }
  return out;
}

/**
 * The ITL CSV: one row per token-carrying chunk of every `ok` streaming record, in request_id
 * then chunk order (`chunk_index` counts those chunks from 0).
 */
export function itlCsv(records: readonly ObservedRecord[]): string {
  let out = 'request_id,chunk_index,timestamp_us\n';
  for (const r of [...records].sort((a, b) => a.requestId - b.requestId)) {
    if (r.status !== 'ok' || !r.streaming) continue;
    r.tokenChunkTimesUs.forEach((t, i) => {
      out += `${r.requestId},${i},${t}\n`;
    });
  }
  return out;
}

/** Writes the header YAML and the data CSV (and the ITL CSV when `itlPath` is given). */
export function writeRealTrace(headerPath: string, dataPath: string, header: RealTraceHeader, records: readonly ObservedRecord[], itlPath?: string): void {
  writeFileSync(dataPath, realTraceCsv(records));
  writeFileSync(headerPath, realTraceHeaderYaml(header));
  if (itlPath !== undefined) writeFileSync(itlPath, itlCsv(records));
}
