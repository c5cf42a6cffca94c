import type { RequestSource, RequestSpec } from '@blis/engine';
import type { WorkloadSpecInput } from '@blis/workload';
import fc from 'fast-check';

const length = fc.integer({ min: 1, max: 4000 });

/** Any valid length distribution (gaussian bounds ordered, as the schema demands). */
export const distributionArb = fc.oneof(
  fc
    .record({ mean: length, std_dev: fc.integer({ min: 0, max: 2000 }), a: fc.integer({ min: 0, max: 5000 }), b: fc.integer({ min: 1, max: 8000 }) })
    .map(({ mean, std_dev, a, b }) => ({ type: 'gaussian' as const, params: { mean, std_dev, min: Math.min(a, b), max: Math.max(a, b) } })),
  length.map((mean) => ({ type: 'exponential' as const, params: { mean } })),
  fc.record({ mu: fc.double({ min: 0, max: 8, noNaN: true }), sigma: fc.double({ min: 0, max: 2, noNaN: true }) }).map((params) => ({ type: 'lognormal' as const, params })),
  fc
    .record({
      alpha: fc.double({ min: 0.5, max: 4, noNaN: true }),
      xm: fc.integer({ min: 1, max: 1000 }),
      mu: fc.double({ min: 0, max: 7, noNaN: true }),
      sigma: fc.double({ min: 0, max: 1.5, noNaN: true }),
      mix_weight: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map((params) => ({ type: 'pareto_lognormal' as const, params: { ...params, max: 100_000 } })),
  length.map((value) => ({ type: 'constant' as const, params: { value } })),
  fc.array(length, { minLength: 1, maxLength: 20 }).map((values) => ({ type: 'empirical' as const, params: { values } })),
);

export const arrivalArb = fc.oneof(
  fc.constant({ process: 'poisson' as const }),
  fc.double({ min: 0.2, max: 4, noNaN: true }).map((cv) => ({ process: 'gamma' as const, cv })),
  fc.double({ min: 0.3, max: 3, noNaN: true }).map((cv) => ({ process: 'weibull' as const, cv })),
  fc.constant({ process: 'constant' as const }),
  fc.double({ min: 1.1, max: 4, noNaN: true }).map((alpha) => ({ process: 'bursty' as const, alpha })),
  fc.double({ min: 0, max: 1, noNaN: true }).map((jitter) => ({ process: 'periodic' as const, jitter })),
);

const SLO = ['critical', 'standard', 'sheddable', 'batch', 'background'] as const;

export interface SpecArbOptions {
  /** Allow context_growth: none (its prompts are not reproducible from a TraceV2 row). */
  growthNone?: boolean;
}

/** Any valid WorkloadSpec v2 with 1-3 clients and at most 300 requests. */
export function specArb(opts: SpecArbOptions = {}): fc.Arbitrary<WorkloadSpecInput> {
  const client = fc.record(
    {
      tenant_id: fc.constantFrom('', 't1', 't2'),
      slo_class: fc.constantFrom(...SLO),
      rate_fraction: fc.double({ min: 0, max: 1, noNaN: true }),
      streaming: fc.boolean(),
      arrival: arrivalArb,
      input_distribution: distributionArb,
      output_distribution: distributionArb,
      prefix_group: fc.constantFrom('g1', 'g2', 'with,comma "quoted"'),
      prefix_length: fc.integer({ min: 0, max: 600 }),
      timeout: fc.integer({ min: 0, max: 5_000_000 }),
      reasoning: fc.record({
        multi_turn: fc.record({
          max_rounds: fc.integer({ min: 1, max: 6 }),
          think_time_us: fc.integer({ min: 0, max: 2_000_000 }),
          context_growth: opts.growthNone === true ? fc.constantFrom('accumulate' as const, 'none' as const) : fc.constant('accumulate' as const),
        }),
      }),
    },
    { requiredKeys: ['rate_fraction', 'input_distribution', 'output_distribution'] },
  );
  return fc
    .record({
      seed: fc.integer({ min: -1000, max: 1_000_000 }),
      aggregate_rate: fc.double({ min: 0.01, max: 5000, noNaN: true }),
      num_requests: fc.integer({ min: 1, max: 300 }),
      clients: fc.array(client, { minLength: 1, maxLength: 3 }),
    })
    .filter((s) => s.clients.some((c) => c.rate_fraction > 0))
    .map((s) => ({ version: '2' as const, ...s, clients: s.clients.map((c, i) => ({ id: `client-${i}`, ...c })) }));
}

/**
 * Drains a source as a replay without a simulator would: each request completes the moment it
 * arrives, so closed-loop sessions send their next round think time later.
 */
export function drain(source: RequestSource): RequestSpec[] {
  const out: RequestSpec[] = [];
  for (let r = source.next(); r !== undefined; r = source.next()) {
    out.push(r);
    source.onRequestDone?.(r, r.arrivalUs, 'completed');
  }
  return out;
}
