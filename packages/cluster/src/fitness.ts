import { parseDecimal, quoteExcerpt } from '@blis/policies/internal';

/** Metric keys `--fitness-weights` understands, and how each raw value is normalised to [0, 1]. */
export const FITNESS_METRICS = [
  'throughput',
  'tokens_per_sec',
  'mean_ttft',
  'p50_ttft',
  'p90_ttft',
  'p95_ttft',
  'p99_ttft',
  'mean_e2e',
  'p50_e2e',
  'p90_e2e',
  'p95_e2e',
  'p99_e2e',
  'mean_itl',
  'p99_itl',
  'p99_scheduling_delay',
] as const;
export type FitnessMetric = (typeof FITNESS_METRICS)[number];

/** Thrown for a malformed `--fitness-weights` string; `detail` names the offending entry. */
export class FitnessWeightsError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'FitnessWeightsError';
  }
}

/**
 * Parses "throughput:0.5,p99_ttft:0.3" into a weight map. An empty entry (`a:1,,b:2`) or a metric
 * given twice is refused rather than skipped or overwritten: either is a typo whose intent is unknown.
 */
export function parseFitnessWeights(text: string): Partial<Record<FitnessMetric, number>> {
  const out: Partial<Record<FitnessMetric, number>> = {};
  const parts = text.split(',').map((p) => p.trim());
  if (parts.every((p) => p === '')) throw new FitnessWeightsError('expected at least one "metric:weight" entry, found none');
  for (const [i, part] of parts.entries()) {
    if (part === '') throw new FitnessWeightsError(`expected "metric:weight", found an empty entry (entry ${i + 1})`);
    const m = /^([a-z0-9_]+)\s*:\s*(.+)$/.exec(part);
    if (m === null) throw new FitnessWeightsError(`expected "metric:weight", found ${quoteExcerpt(part)}`);
    const key = m[1] as FitnessMetric;
    if (!FITNESS_METRICS.includes(key)) throw new FitnessWeightsError(`unknown fitness metric ${quoteExcerpt(m[1])}; known: ${FITNESS_METRICS.join(', ')}`);
    if (out[key] !== undefined) throw new FitnessWeightsError(`duplicate fitness metric "${key}"`);
    const w = parseDecimal(m[2]);
    if (w === undefined || w < 0) throw new FitnessWeightsError(`weight of ${key} must be a non-negative number, found ${quoteExcerpt(m[2])}`);
    out[key] = w;
  }
  return out;
}

/** Latency in µs -> 1 / (1 + v/1000): 1 ms maps to 0.5, lower is better. */
export function normalizeLatencyUs(v: number): number {
  return 1 / (1 + v / 1000);
}

/** Throughput -> v / (v + reference): 100 req/s or 10,000 tok/s map to 0.5. */
export function normalizeThroughput(v: number, reference: number): number {
  return v / (v + reference);
}

export interface FitnessResult {
  score: number;
  /** Normalised value of each weighted metric. */
  components: Record<string, number>;
  /** Raw value of each weighted metric (µs for latencies, per second for throughput). */
  raw: Record<string, number>;
}

/**
 * Weighted sum of normalised metrics. Weights are used as given (BLIS does not renormalise),
 * and the raw values travel with the score because the normalisation compresses differences.
 */
export function computeFitness(weights: Partial<Record<FitnessMetric, number>>, raw: Record<FitnessMetric, number>): FitnessResult {
  let score = 0;
  const components: Record<string, number> = {};
  const rawOut: Record<string, number> = {};
  for (const key of FITNESS_METRICS) {
    const w = weights[key];
    if (w === undefined) continue;
    const v = raw[key];
    const norm = key === 'throughput' ? normalizeThroughput(v, 100) : key === 'tokens_per_sec' ? normalizeThroughput(v, 10_000) : normalizeLatencyUs(v);
    components[key] = norm;
    rawOut[key] = v;
    score += w * norm;
  }
  return { score, components, raw: rawOut };
}
