import type { LiveSimulation } from './live-simulation.js';

/**
 * vLLM's prefix-cache counters, in Prometheus text format, over the requests the simulation has
 * completed by `nowUs`: `vllm:prefix_cache_queries` counts
 * prompt tokens looked up, `vllm:prefix_cache_hits` those found cached, with the older
 * `vllm:gpu_prefix_cache_*` names beside them, as `blis observe --scrape-kv-metrics` reads them.
 */
export function prometheusText(live: LiveSimulation, nowUs: number, blockSize: number): string {
  let queries = 0;
  let hits = 0;
  let running = 0;
  let waiting = 0;
  const c = live.cacheCounters;
  queries = c.queriedTokens;
  hits = Math.min(c.queriedTokens, c.hitBlocks * blockSize);
  for (const e of live.all()) {
    if (e.status !== 'pending') continue;
    if (e.dueUs.length > 0 && e.dueUs[0] <= nowUs) running++;
    else waiting++;
  }
  const counter = (name: string, help: string, v: number) => `# HELP ${name} ${help}\n# TYPE ${name} counter\n${name}_total ${v}\n`;
  const gauge = (name: string, help: string, v: number) => `# HELP ${name} ${help}\n# TYPE ${name} gauge\n${name} ${v}\n`;
  return (
    counter('vllm:prefix_cache_queries', 'Prompt tokens looked up in the prefix cache.', queries) +
    counter('vllm:prefix_cache_hits', 'Prompt tokens found in the prefix cache.', hits) +
    counter('vllm:gpu_prefix_cache_queries', 'Prompt tokens looked up in the GPU prefix cache.', queries) +
    counter('vllm:gpu_prefix_cache_hits', 'Prompt tokens found in the GPU prefix cache.', hits) +
    gauge('vllm:num_requests_running', 'Requests producing tokens.', running) +
    gauge('vllm:num_requests_waiting', 'Requests waiting for their first token.', waiting)
  );
}
