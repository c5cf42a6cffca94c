import type { InstanceSimulator } from '@blis/engine';
import { GrowableFloat64, summarizeUsAsMs } from '@blis/engine/internal';
import type { Interner } from '../completion-log.js';

/** One adapter's figures over the run (BLIS's `adapters` block, its field names). */
export interface AdapterMetrics {
  /** Cold loads, summed over instances (one per load, so churn counts). */
  load_count: number;
  eviction_count: number;
  /** TTFT of its completed requests, µs. */
  ttft_p50_us: number;
  ttft_p99_us: number;
  /** Output tokens of its completed requests per second of the run. */
  throughput_tok_per_s: number;
}

/** What the completion log holds about adapters: each completion's adapter code (-1 = base model). */
export interface AdapterColumns {
  readonly adapter: GrowableFloat64;
  readonly adapterNames: Interner;
  readonly ttftUs: GrowableFloat64;
  readonly outputTokens: GrowableFloat64;
}

/**
 * Per adapter id (sorted), its loads and evictions over the instances and the TTFT and
 * throughput of its completed requests; an adapter appears once it completed a request or was
 * loaded or evicted. Undefined when no instance serves adapters (the block is absent then).
 */
export function adapterMetrics(instances: readonly InstanceSimulator[], log: AdapterColumns, durationUs: number): Record<string, AdapterMetrics> | undefined {
  const first = instances.find((i) => i.lora !== undefined)?.lora;
  if (first === undefined) return undefined;
  const loads = new Map<string, number>();
  const evictions = new Map<string, number>();
  for (const inst of instances) {
    const lora = inst.lora;
    if (lora === undefined) continue;
    for (let a = 0; a < lora.loads.length; a++) {
      const id = lora.idOf(a);
      if (lora.loads[a] > 0) loads.set(id, (loads.get(id) ?? 0) + lora.loads[a]);
      if (lora.evictions[a] > 0) evictions.set(id, (evictions.get(id) ?? 0) + lora.evictions[a]);
    }
  }
  const ttfts = new Map<string, GrowableFloat64>();
  const tokens = new Map<string, number>();
  for (let i = 0; i < log.adapter.length; i++) {
    const code = log.adapter.get(i);
    if (code < 0) continue;
    const id = log.adapterNames.names[code];
    let t = ttfts.get(id);
    if (t === undefined) ttfts.set(id, (t = new GrowableFloat64()));
    t.push(log.ttftUs.get(i));
    tokens.set(id, (tokens.get(id) ?? 0) + log.outputTokens.get(i));
  }
  const ids = [...new Set([...ttfts.keys(), ...loads.keys(), ...evictions.keys()])].sort();
  const out: Record<string, AdapterMetrics> = {};
  for (const id of ids) {
    const t = ttfts.get(id);
    const d = t === undefined ? undefined : summarizeUsAsMs(t.view());
    out[id] = {
      load_count: loads.get(id) ?? 0,
      eviction_count: evictions.get(id) ?? 0,
      // BLIS takes its ms percentiles back to µs.
      ttft_p50_us: d === undefined ? 0 : d.p50 * 1000,
      ttft_p99_us: d === undefined ? 0 : d.p99 * 1000,
      throughput_tok_per_s: t === undefined || durationUs <= 0 ? 0 : (tokens.get(id) ?? 0) / (durationUs / 1e6),
    };
  }
  return out;
}
