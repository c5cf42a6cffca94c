import type { AnomalyKind } from './records.js';
import type { TraceAnalyzer } from './trace-analyzer.js';

export interface AnomalyExample {
  time_us: number;
  /** Instance position, or -1 for cluster-wide anomalies. */
  instance: number;
  /** For inversions and HOL blocking: the favoured request, then the one it overtook. */
  request_ids: string[];
}

export interface TailBlowupExample extends AnomalyExample {
  slo_class: string;
  p50_ttft_ms: number;
  p99_ttft_ms: number;
  ratio: number;
}

export interface ScaleOscillationExample extends AnomalyExample {
  /** The scaling group whose applied action reversed its previous one. */
  pool: string;
}

export interface AnomalyCount<E extends AnomalyExample = AnomalyExample> {
  count: number;
  /** The first few occurrences. */
  examples: E[];
}

/** The `anomalies` block of a traced run's result JSON. */
export interface AnomalyReport {
  priority_inversion: AnomalyCount;
  hol_blocking: AnomalyCount;
  kv_thrashing: AnomalyCount;
  scale_oscillation: AnomalyCount<ScaleOscillationExample>;
  tail_latency_blowup: AnomalyCount<TailBlowupExample> & { threshold: number };
}

function plain(a: TraceAnalyzer, kind: AnomalyKind): AnomalyCount {
  const t = a.anomalies.get(kind)!;
  return { count: t.count, examples: t.examples.map((e) => ({ time_us: e.ts, instance: e.inst, request_ids: [...e.ids] })) };
}

/** Anomaly counts and examples, as the analyzer saw them in the trace. */
export function buildAnomalyReport(a: TraceAnalyzer): AnomalyReport {
  const tail = a.anomalies.get('tail_latency_blowup')!;
  const osc = a.anomalies.get('scale_oscillation')!;
  return {
    priority_inversion: plain(a, 'priority_inversion'),
    hol_blocking: plain(a, 'hol_blocking'),
    kv_thrashing: plain(a, 'kv_thrashing'),
    scale_oscillation: { count: osc.count, examples: osc.examples.map((e) => ({ time_us: e.ts, instance: e.inst, request_ids: [...e.ids], pool: e.pool ?? '' })) },
    tail_latency_blowup: {
      count: tail.count,
      threshold: a.header?.tail_ratio ?? 0,
      examples: tail.examples.map((e) => ({
        time_us: e.ts,
        instance: e.inst,
        request_ids: [...e.ids],
        slo_class: e.slo === '' || e.slo === undefined ? 'unspecified' : e.slo,
        p50_ttft_ms: (e.p50_us ?? 0) / 1000,
        p99_ttft_ms: (e.p99_us ?? 0) / 1000,
        ratio: e.ratio ?? 0,
      })),
    },
  };
}
