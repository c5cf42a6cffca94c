import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ObservedTraceRow } from '../src/calibrate/observed-trace.js';
import type { SimRequestResult } from '../src/calibrate/sim-results.js';

// Small recorded traces and results, built in memory or written to a temp folder.

/** BLIS's TraceV2 columns with the optional vllm_priority inserted, as a real-mode trace has them. */
export const COLUMNS = [
  'request_id', 'client_id', 'tenant_id', 'slo_class', 'vllm_priority', 'session_id', 'round_index', 'prefix_group', 'prefix_length',
  'streaming', 'input_tokens', 'output_tokens', 'text_tokens', 'image_tokens', 'audio_tokens', 'video_tokens', 'reason_ratio', 'model',
  'deadline_us', 'server_input_tokens', 'arrival_time_us', 'send_time_us', 'first_chunk_time_us', 'last_chunk_time_us', 'num_chunks',
  'status', 'error_message', 'finish_reason',
];

export const EPOCH = 1_700_000_000_000_000;

/** A recorded request sent at EPOCH + id ms with the given client-side TTFT and E2E (µs). */
export function rec(id: number, ttftUs: number, e2eUs: number, over: Partial<ObservedTraceRow> = {}): ObservedTraceRow {
  const send = EPOCH + id * 1000;
  return { requestId: id, inputTokens: 100, serverInputTokens: 0, outputTokens: 10, sendTimeUs: send, firstChunkTimeUs: send + ttftUs, lastChunkTimeUs: send + e2eUs, numChunks: 10, status: 'ok', sloClass: '', model: '', ...over };
}

export function sim(id: number, ttftUs: number, e2eUs: number, over: Partial<SimRequestResult> = {}): SimRequestResult {
  return { requestId: id, ttftUs, e2eUs, inputTokens: 100, outputTokens: 10, sloClass: '', model: '', itlMeanUs: 0, ...over };
}

export function csvOf(records: readonly ObservedTraceRow[]): string {
  const rows = records.map((r) => {
    const v: Record<string, string | number> = {
      request_id: r.requestId, client_id: 'c', tenant_id: '', slo_class: r.sloClass, vllm_priority: 0, session_id: '', round_index: 0,
      prefix_group: '', prefix_length: 0, streaming: 'true', input_tokens: r.inputTokens, output_tokens: r.outputTokens, text_tokens: r.inputTokens,
      image_tokens: 0, audio_tokens: 0, video_tokens: 0, reason_ratio: 0, model: r.model, deadline_us: 0, server_input_tokens: r.serverInputTokens,
      arrival_time_us: r.requestId * 1000, send_time_us: r.sendTimeUs, first_chunk_time_us: r.firstChunkTimeUs, last_chunk_time_us: r.lastChunkTimeUs,
      num_chunks: r.numChunks, status: r.status, error_message: '', finish_reason: 'length',
    };
    return COLUMNS.map((c) => v[c]).join(',');
  });
  return `${COLUMNS.join(',')}\n${rows.join('\n')}\n`;
}

export function headerYaml(extra = ''): string {
  return `trace_version: 3\ntime_unit: us\nmode: real\nwarm_up_requests: 0\n${extra}`;
}

/** BLIS's `--results-path` array. */
export function blisResultsJson(sims: readonly SimRequestResult[]): string {
  return JSON.stringify(sims.map((s) => ({ request_id: `request_${s.requestId}`, ttft_us: s.ttftUs, e2e_us: s.e2eUs, input_tokens: s.inputTokens, output_tokens: s.outputTokens, ...(s.sloClass !== '' ? { slo_class: s.sloClass } : {}), ...(s.itlMeanUs > 0 ? { itl_mean_us: s.itlMeanUs } : {}) })));
}

/** Our `blis replay --results-path` object. */
export function oursResultsJson(sims: readonly SimRequestResult[]): string {
  return JSON.stringify({
    completed_requests: sims.length,
    cache_hit_rate: 0.5,
    requests: sims.map((s) => ({ request_id: String(s.requestId), arrival_ms: 0, input_tokens: s.inputTokens, output_tokens: s.outputTokens, handled_by: 'instance_0', ttft_ms: s.ttftUs / 1000, itl_ms: s.itlMeanUs / 1000, e2e_ms: s.e2eUs / 1000, scheduling_delay_ms: 0, cache_hit_blocks: 0, preemptions: 0, ...(s.sloClass !== '' ? { slo_class: s.sloClass } : {}) })),
  });
}

/** Writes `files` (name → text) into a fresh temp folder; returns name → path. */
export function writeFiles(files: Record<string, string>): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'blis-calibrate-'));
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(files)) {
    out[name] = join(dir, name);
    writeFileSync(out[name], text);
  }
  return out;
}
