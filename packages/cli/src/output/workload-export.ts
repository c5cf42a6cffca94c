import { openWorkload } from '@blis/cluster/internal';
import type { RequestOutcome, RequestSource, RequestSpec } from '@blis/engine';
import type { SimulationConfig, SimulationResult } from '@blis/cluster';
import { type SloDimTargets, type TraceV2Header, type TraceV2RowOutcome, writeTraceV2 } from '@blis/workload';
import { MinHeap } from '@blis/workload/internal';

/** What the run made of one request, from its per-request record. */
export interface RunFate {
  arrivalUs: number;
  inputTokens: number;
  outputTokens: number;
  ttftUs: number | null;
  itlUs: number;
  outcome: string;
  leftUs: number | null;
}

function fates(result: SimulationResult): Map<string, RunFate> {
  const byId = new Map<string, RunFate>();
  for (const r of result.requests ?? [])
    byId.set(r.request_id, { arrivalUs: Math.round(r.arrival_ms * 1000), inputTokens: r.input_tokens, outputTokens: r.output_tokens, ttftUs: Math.round(r.ttft_ms * 1000), itlUs: r.itl_ms * 1000, outcome: 'completed', leftUs: r.left_ms === undefined ? null : Math.round(r.left_ms * 1000) });
  for (const r of result.unfinished_requests ?? [])
    byId.set(r.request_id, {
      arrivalUs: Math.round(r.arrival_ms * 1000),
      inputTokens: r.input_tokens,
      outputTokens: r.output_tokens,
      ttftUs: r.ttft_ms === null ? null : Math.round(r.ttft_ms * 1000),
      itlUs: 0,
      outcome: r.outcome,
      leftUs: r.left_ms === null ? null : Math.round(r.left_ms * 1000),
    });
  return byId;
}

/** How a closed-loop source hears of a request that left (still queued or running: it never did). */
const LEFT_AS: Record<string, RequestOutcome | undefined> = { completed: 'completed', dropped_unservable: 'dropped', timed_out: 'timed_out', rejected: 'rejected', shed: 'rejected', drained: 'dropped' };

/**
 * BLIS's row fate (`RequestsToTraceRecords`): the first chunk at arrival + TTFT, the last at
 * arrival + TTFT + the inter-token gaps (a request's mean ITL over its output tokens but one);
 * `ok` when it completed, `timeout` when it timed out, else `incomplete`. An unfinished request
 * that produced tokens gets its first-token time as its last chunk: the records keep no partial ITLs.
 */
function rowOutcome(f: RunFate): TraceV2RowOutcome {
  const status = f.outcome === 'completed' ? 'ok' : f.outcome === 'timed_out' ? 'timeout' : 'incomplete';
  if (f.ttftUs === null) return { firstChunkUs: 0, lastChunkUs: 0, status };
  const first = f.arrivalUs + f.ttftUs;
  const last = f.outcome === 'completed' ? f.arrivalUs + Math.round(f.ttftUs + f.itlUs * Math.max(0, f.outputTokens - 1)) : first;
  return { firstChunkUs: first, lastChunkUs: last, status };
}

/** The requests of `rows`, in order, as a source. */
function arraySource(rows: readonly RequestSpec[]): RequestSource {
  let i = 0;
  return { peekArrivalUs: () => rows[i]?.arrivalUs ?? Number.POSITIVE_INFINITY, next: () => rows[i++] };
}

/** `session_<id>_round_<k>` of a closed-loop replay's follow-up id (`..._<counter>`), else undefined. */
function followUpKey(id: string): string | undefined {
  return /^(session_.+_round_\d+)_\d+$/.exec(id)?.[1];
}

/** A request as the run received it: its spec (arrival and token counts the run's) and fate. */
export interface RunRequest {
  spec: RequestSpec;
  fate: RunFate;
}

/**
 * Every request the run received, by arrival: generated again from the same config and seed (the
 * run streamed them without keeping them) and matched to the run's per-request records by id.
 * Arrivals and token counts are the run's (a session's later rounds arrive when the run completed
 * the earlier ones). Completions reach the source in the run's order, by the time each request
 * left, before any later arrival is drawn: closed-loop sources make their next rounds (and spend
 * a follow-up budget) in that order, as they did in the run.
 */
export function runRequests(config: SimulationConfig, result: SimulationResult): RunRequest[] {
  const byId = fates(result);
  const followUpIds = new Map<string, string>();
  for (const id of byId.keys()) {
    const key = followUpKey(id);
    if (key !== undefined) followUpIds.set(key, id);
  }
  // A client that names no SLO class sends requests of none, as BLIS writes them in both files.
  const source = openWorkload(config.workload, { seed: config.seed, blockSizeTokens: config.blockSizeTokens, horizonUs: config.horizonUs, defaultSloClass: '' });
  const rows: RunRequest[] = [];
  const done = new MinHeap<{ at: number; seq: number; r: RequestSpec; outcome: RequestOutcome }>((a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq));
  let seq = 0;
  const leave = (r: RequestSpec, at: number, outcome: RequestOutcome) => done.push({ at, seq: seq++, r, outcome });
  for (;;) {
    const next = source.peekArrivalUs();
    const first = done.peek();
    if (first !== undefined && first.at <= next) {
      done.pop();
      source.onRequestDone?.(first.r, first.at, first.outcome);
      continue;
    }
    if (next === Number.POSITIVE_INFINITY || rows.length >= byId.size) break;
    let r = source.next()!;
    let fate = byId.get(r.id);
    // A closed-loop replay names follow-ups by a counter in the order completions reached the
    // source; completions at the same µs (on two instances) may come here in another order.
    // A session has one request per round, so the round names it.
    const runId = fate === undefined ? followUpIds.get(followUpKey(r.id) ?? '') : undefined;
    if (runId !== undefined) {
      r = { ...r, id: runId };
      fate = byId.get(runId);
    }
    if (fate === undefined) {
      // Past the run's horizon: nothing later arrived either (arrivals never go back in time).
      if (config.horizonUs !== undefined && r.arrivalUs > config.horizonUs) break;
      leave(r, r.arrivalUs, 'completed');
      continue;
    }
    const shift = fate.arrivalUs - r.arrivalUs;
    rows.push({ spec: { ...r, arrivalUs: fate.arrivalUs, inputTokens: fate.inputTokens, outputTokens: fate.outputTokens, deadlineUs: r.deadlineUs > 0 ? r.deadlineUs + shift : 0 }, fate });
    const left = LEFT_AS[fate.outcome];
    if (left !== undefined) leave(r, fate.leftUs ?? fate.arrivalUs, left);
  }
  return rows.sort((a, b) => a.spec.arrivalUs - b.spec.arrivalUs || a.spec.index - b.spec.index);
}

/**
 * `--trace-output <prefix>`: the run's workload as BLIS writes it, a TraceV2 pair
 * `<prefix>.yaml` + `<prefix>.csv` of every request that arrived ({@link runRequests}), by
 * arrival, numbered from 0, with the chunk times and status the run gave it. Returns the number
 * of rows.
 */
export function exportRunWorkload(config: SimulationConfig, rows: readonly RunRequest[], prefix: string, mode: 'generated' | 'replayed', goodputTargets?: Record<string, SloDimTargets>): number {
  const numbered = rows.map((row, i) => ({ ...row.spec, id: String(i) }));
  const outcomes = new Map(numbered.map((spec, i) => [spec, rowOutcome(rows[i].fate)]));
  const w = config.workload;
  const seed = w.kind === 'synthetic' ? config.seed : w.kind === 'spec' ? w.seed : undefined;
  const header: Partial<TraceV2Header> = {
    trace_version: 3,
    mode,
    ...(mode === 'generated' && seed !== undefined ? { workload_seed: seed } : {}),
    // The thresholds the run applied, for a replay or calibration downstream (BLIS omits zeros).
    ...(goodputTargets !== undefined ? { goodput_slo_targets: headerTargets(goodputTargets) } : {}),
  };
  const adapters = numbered.some((r) => r.adapter !== undefined && r.adapter !== '');
  return writeTraceV2(arraySource(numbered), `${prefix}.yaml`, `${prefix}.csv`, header, (r) => outcomes.get(r)!, adapters);
}

/** Resolved thresholds as a header writes them: ms, a dimension left out when not gated. */
function headerTargets(t: Record<string, SloDimTargets>): NonNullable<TraceV2Header['goodput_slo_targets']> {
  return Object.fromEntries(
    Object.entries(t).map(([cls, d]) => [cls, { ...(d.ttftMs > 0 ? { ttft_ms: d.ttftMs } : {}), ...(d.itlMs > 0 ? { itl_ms: d.itlMs } : {}), ...(d.e2eMs > 0 ? { e2e_ms: d.e2eMs } : {}) }]),
  );
}
