import { normalizeLatencyUs, normalizeThroughput } from '@blis/cluster';

/** How an objective turns a raw figure into a score in [0, 1], higher is better. */
export interface Objective {
  /** The figure of the scenario's metrics (`p99_ttft_us`, `throughput_rps`, ...) it reads. */
  metric: string;
  normalize: (v: number) => number;
  describe: string;
}

const latency = (metric: string): Objective => ({ metric, normalize: normalizeLatencyUs, describe: '1 / (1 + µs/1000): 1 ms → 0.5' });
const share = (metric: string): Objective => ({ metric, normalize: (v) => Math.min(1, Math.max(0, v)), describe: 'the share itself' });

/**
 * The objectives a request may weight. Latency and throughput use BLIS's fitness normalisation
 * (`1/(1 + µs/1000)`, `x/(x + 100)` req/s, `x/(x + 10000)` tok/s); shares are used as they are;
 * cost and replica time map their own unit to 0.5 at one dollar and one replica-hour.
 */
export const OBJECTIVES: Readonly<Record<string, Objective>> = {
  mean_ttft: latency('mean_ttft_us'),
  p90_ttft: latency('p90_ttft_us'),
  p95_ttft: latency('p95_ttft_us'),
  p99_ttft: latency('p99_ttft_us'),
  mean_e2e: latency('mean_e2e_us'),
  p90_e2e: latency('p90_e2e_us'),
  p95_e2e: latency('p95_e2e_us'),
  p99_e2e: latency('p99_e2e_us'),
  mean_itl: latency('mean_itl_us'),
  p99_itl: latency('p99_itl_us'),
  p99_scheduling_delay: latency('p99_scheduling_delay_us'),
  pd_transfer_p99: latency('pd_transfer_p99_us'),
  throughput: { metric: 'throughput_rps', normalize: (v) => normalizeThroughput(v, 100), describe: 'x / (x + 100) req/s' },
  goodput: { metric: 'goodput_rps', normalize: (v) => normalizeThroughput(v, 100), describe: 'x / (x + 100) req/s meeting every SLO' },
  tokens_per_sec: { metric: 'tokens_per_sec', normalize: (v) => normalizeThroughput(v, 10_000), describe: 'x / (x + 10000) tok/s' },
  slo_attainment: share('slo_attainment'),
  completion_rate: share('completion_rate'),
  cache_hit_rate: share('cache_hit_rate'),
  cost_usd: { metric: 'cost_usd', normalize: (v) => 1 / (1 + v), describe: '1 / (1 + USD)' },
  replica_seconds: { metric: 'replica_seconds', normalize: (v) => 1 / (1 + v / 3600), describe: '1 / (1 + replica-hours)' },
};

export const OBJECTIVE_NAMES: readonly string[] = Object.keys(OBJECTIVES);

/** The weighted objectives' normalised values and their weighted mean (the score, in [0, 1]). */
export function scoreObjectives(weights: Readonly<Record<string, number>>, metrics: Readonly<Record<string, number>>): { score: number; objectiveScores: Record<string, number> } {
  const objectiveScores: Record<string, number> = {};
  let total = 0;
  let weighted = 0;
  for (const [name, w] of Object.entries(weights).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const o = OBJECTIVES[name];
    const v = o.normalize(metrics[o.metric] ?? 0);
    objectiveScores[name] = v;
    total += w;
    weighted += w * v;
  }
  return { score: total > 0 ? weighted / total : 0, objectiveScores };
}
