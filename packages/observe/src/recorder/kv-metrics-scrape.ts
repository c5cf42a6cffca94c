import type { TraceObservedKVMetrics } from '@blis/workload';
import { type Dispatcher, request } from 'undici';
import { parsePrometheusText } from './prometheus-text.js';

// vLLM's families: the offload-tiering counters (a multi-tier hit rate) and, on released vLLM,
// the GPU prefix cache's, a weaker signal recorded under a source of its own.
const TIERED_HITS = 'vllm:kv_offload_tiering_block_hits';
const TIERED_QUERIES = 'vllm:kv_offload_tiering_block_queries';
const TIERED_READ_TIME = 'vllm:kv_offload_tiering_read_time';
const TIERED_WRITE_TIME = 'vllm:kv_offload_tiering_write_time';
const GPU_HITS = 'vllm:gpu_prefix_cache_hits';
const GPU_QUERIES = 'vllm:gpu_prefix_cache_queries';
const GPU_HIT_RATE = 'vllm:gpu_prefix_cache_hit_rate';

/** Fetches and parses `/metrics`; rejects with a message naming the URL on any failure. */
export async function scrapeMetrics(url: string, apiKey: string, dispatcher: Dispatcher, timeoutMs: number): Promise<Map<string, number>> {
  const headers: Record<string, string> = apiKey !== '' ? { authorization: `Bearer ${apiKey}` } : {};
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, { method: 'GET', headers, dispatcher, signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    throw new Error(`GET ${url}: ${(e as Error).message}`);
  }
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET ${url}: HTTP ${res.statusCode}`);
  return parsePrometheusText(text);
}

/** The windowed hit rate, or why none can be given (the caller warns and leaves the header block out). */
export type HitRateOutcome = { ok: true; metrics: TraceObservedKVMetrics } | { ok: false; reason: string };

/** end − start of a family; a family missing at the start counts from 0 (it appeared in the window). */
function delta(start: Map<string, number>, end: Map<string, number>, name: string): number | string {
  const d = (end.get(name) ?? 0) - (start.get(name) ?? 0);
  return d < 0 ? `${name} went backwards over the window (${start.get(name)} → ${end.get(name)}; a server restart?)` : d;
}

/**
 * The KV hit rate over the window between two scrapes: the tiered counters when their queries
 * family is present, else the GPU prefix cache's counters, else its hit-rate gauge at the end.
 * A counter going backwards, zero queries or more hits than queries give no value at all.
 */
export function observedHitRate(start: Map<string, number>, end: Map<string, number>, vllmCommit: string): HitRateOutcome {
  const commit = vllmCommit !== '' ? { vllm_commit: vllmCommit } : {};
  const counters = (hitsName: string, queriesName: string): { hits: number; queries: number } | string => {
    const queries = delta(start, end, queriesName);
    if (typeof queries === 'string') return queries;
    const hits = delta(start, end, hitsName);
    if (typeof hits === 'string') return hits;
    if (queries <= 0) return `${queriesName} did not grow over the window (no queries)`;
    if (hits > queries) return `${hitsName} (${hits}) exceeds ${queriesName} (${queries}) over the window`;
    return { hits, queries };
  };
  if (end.has(TIERED_QUERIES)) {
    const c = counters(TIERED_HITS, TIERED_QUERIES);
    if (typeof c === 'string') return { ok: false, reason: c };
    const read = delta(start, end, TIERED_READ_TIME);
    const write = delta(start, end, TIERED_WRITE_TIME);
    return {
      ok: true,
      metrics: {
        source: 'tiered',
        hit_rate: c.hits / c.queries,
        block_hits: Math.round(c.hits),
        block_queries: Math.round(c.queries),
        ...(typeof read === 'number' && read > 0 ? { read_time_total: read } : {}),
        ...(typeof write === 'number' && write > 0 ? { write_time_total: write } : {}),
        ...commit,
      },
    };
  }
  if (end.has(GPU_QUERIES)) {
    const c = counters(GPU_HITS, GPU_QUERIES);
    if (typeof c === 'string') return { ok: false, reason: c };
    return { ok: true, metrics: { source: 'gpu-prefix-cache-fallback', hit_rate: c.hits / c.queries, block_hits: Math.round(c.hits), block_queries: Math.round(c.queries), ...commit } };
  }
  const gauge = end.get(GPU_HIT_RATE);
  if (gauge !== undefined) return { ok: true, metrics: { source: 'gpu-prefix-cache-fallback', hit_rate: gauge, block_hits: 0, block_queries: 0, ...commit } };
  return { ok: false, reason: `no KV cache counters in /metrics (looked for ${TIERED_QUERIES}, ${GPU_QUERIES} and ${GPU_HIT_RATE})` };
}
