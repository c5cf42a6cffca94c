import { describe, expect, it } from 'vitest';
import { observedHitRate } from '../src/recorder/kv-metrics-scrape.js';
import { parsePrometheusText } from '../src/recorder/prometheus-text.js';

describe('Prometheus text', () => {
  it('skips comments, sums label series and folds _total', () => {
    const m = parsePrometheusText(
      [
        '# HELP vllm:x things',
        '# TYPE vllm:x counter',
        'vllm:x_total{tier="cpu",note="a}b, c"} 3',
        'vllm:x{tier="disk"} 4 1700000000000',
        '',
        'plain 2.5',
        'broken{a="1"} not-a-number',
        'nan_gauge NaN',
      ].join('\n'),
    );
    expect(m.get('vllm:x')).toBe(7);
    expect(m.get('plain')).toBe(2.5);
    expect(m.has('broken')).toBe(false);
    expect(m.has('nan_gauge')).toBe(false);
  });
});

const mk = (o: Record<string, number>) => new Map(Object.entries(o));

describe('observed KV hit rate', () => {
  it('prefers the tiered counters, as deltas over the window', () => {
    const r = observedHitRate(
      mk({ 'vllm:kv_offload_tiering_block_hits': 10, 'vllm:kv_offload_tiering_block_queries': 20, 'vllm:kv_offload_tiering_read_time': 1 }),
      mk({ 'vllm:kv_offload_tiering_block_hits': 40, 'vllm:kv_offload_tiering_block_queries': 60, 'vllm:kv_offload_tiering_read_time': 3.5, 'vllm:gpu_prefix_cache_queries': 9 }),
      'abc',
    );
    expect(r).toEqual({ ok: true, metrics: { source: 'tiered', hit_rate: 0.75, block_hits: 30, block_queries: 40, read_time_total: 2.5, vllm_commit: 'abc' } });
  });
  it('falls back to the GPU prefix cache counters, then its gauge', () => {
    expect(observedHitRate(mk({ 'vllm:gpu_prefix_cache_hits': 1, 'vllm:gpu_prefix_cache_queries': 2 }), mk({ 'vllm:gpu_prefix_cache_hits': 3, 'vllm:gpu_prefix_cache_queries': 10 }), '')).toEqual({
      ok: true,
      metrics: { source: 'gpu-prefix-cache-fallback', hit_rate: 0.25, block_hits: 2, block_queries: 8 },
    });
    expect(observedHitRate(mk({}), mk({ 'vllm:gpu_prefix_cache_hit_rate': 0.4 }), '')).toEqual({ ok: true, metrics: { source: 'gpu-prefix-cache-fallback', hit_rate: 0.4, block_hits: 0, block_queries: 0 } });
  });
  it('gives no value for a counter going backwards, zero queries, more hits than queries, or no family', () => {
    const q = 'vllm:gpu_prefix_cache_queries';
    const h = 'vllm:gpu_prefix_cache_hits';
    expect(observedHitRate(mk({ [q]: 10 }), mk({ [q]: 5 }), '').ok).toBe(false);
    expect(observedHitRate(mk({ [q]: 10, [h]: 5 }), mk({ [q]: 10, [h]: 5 }), '').ok).toBe(false);
    expect(observedHitRate(mk({ [q]: 0, [h]: 0 }), mk({ [q]: 2, [h]: 3 }), '').ok).toBe(false);
    expect(observedHitRate(mk({}), mk({ other: 1 }), '').ok).toBe(false);
  });
});
