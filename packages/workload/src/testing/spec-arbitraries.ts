import fc from 'fast-check';
import type { ArrivalSpec } from '../arrivals.js';
import type { DistributionSpec } from '../distributions.js';
import type { WorkloadSpecInput } from '../spec-schema.js';

const length = fc.integer({ min: 1, max: 4000 });

/**
 * Any valid token-length distribution of WorkloadSpec v2 (gaussian, exponential, lognormal,
 * pareto_lognormal, constant, empirical with inline values), with gaussian bounds ordered as
 * the schema demands. Lengths stay within a few thousand tokens.
 */
export const distributionArb: fc.Arbitrary<DistributionSpec> = fc.oneof(
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
) as fc.Arbitrary<DistributionSpec>;

/** Any valid arrival process of WorkloadSpec v2 (poisson, gamma, weibull, constant, bursty, periodic). */
export const arrivalArb: fc.Arbitrary<ArrivalSpec> = fc.oneof(
  fc.constant({ process: 'poisson' as const }),
  fc.double({ min: 0.2, max: 4, noNaN: true }).map((cv) => ({ process: 'gamma' as const, cv })),
  fc.double({ min: 0.3, max: 3, noNaN: true }).map((cv) => ({ process: 'weibull' as const, cv })),
  fc.constant({ process: 'constant' as const }),
  fc.double({ min: 1.1, max: 4, noNaN: true }).map((alpha) => ({ process: 'bursty' as const, alpha })),
  fc.double({ min: 0, max: 1, noNaN: true }).map((jitter) => ({ process: 'periodic' as const, jitter })),
) as fc.Arbitrary<ArrivalSpec>;

/** A medium's item count per prompt: a few items, each draw at least 1. */
const itemCountArb: fc.Arbitrary<DistributionSpec> = fc.oneof(
  fc.integer({ min: 1, max: 4 }).map((value) => ({ type: 'constant' as const, params: { value } })),
  fc.record({ mean: fc.double({ min: 0.5, max: 4, noNaN: true }), std_dev: fc.double({ min: 0, max: 2, noNaN: true }), max: fc.integer({ min: 1, max: 6 }) }).map(({ mean, std_dev, max }) => ({ type: 'gaussian' as const, params: { mean, std_dev, min: 0, max } })),
  fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 5 }).map((values) => ({ type: 'empirical' as const, params: { values } })),
) as fc.Arbitrary<DistributionSpec>;

/**
 * Any valid `multimodal` section: text tokens and any of image, audio and video (each a per-item
 * token distribution with an item count), at least one of them.
 */
export const multimodalArb = fc
  .record(
    {
      text_distribution: distributionArb,
      image: fc.tuple(distributionArb, itemCountArb),
      audio: fc.tuple(distributionArb, itemCountArb),
      video: fc.tuple(distributionArb, itemCountArb),
    },
    { requiredKeys: [] },
  )
  .filter((m) => Object.keys(m).length > 0)
  .map(({ text_distribution, image, audio, video }) => ({
    ...(text_distribution !== undefined ? { text_distribution } : {}),
    ...(image !== undefined ? { image_distribution: image[0], image_count_distribution: image[1] } : {}),
    ...(audio !== undefined ? { audio_distribution: audio[0], audio_count_distribution: audio[1] } : {}),
    ...(video !== undefined ? { video_distribution: video[0], video_count_distribution: video[1] } : {}),
  }));

const SLO = ['critical', 'standard', 'sheddable', 'batch', 'background'] as const;

/**
 * A multi-turn client's `reason_ratio_distribution` as BLIS writes them: a constant percentage
 * (0 allowed), a gaussian, or BLIS's empirical probability table (`blis convert servegen`'s).
 */
export const reasonRatioArb = fc.oneof(
  fc.integer({ min: 0, max: 100 }).map((value) => ({ type: 'constant' as const, params: { value } })),
  fc
    .dictionary(
      fc.integer({ min: 0, max: 100 }).map(String),
      fc.double({ min: 0, max: 1, noNaN: true }),
      { minKeys: 1, maxKeys: 6 },
    )
    .map((params) => ({ type: 'empirical' as const, params })),
);

/** `goodput_slo_targets`: thresholds (ms) for up to three classes, `default` among the names. */
export const goodputTargetsArb = fc.dictionary(
  fc.constantFrom(...SLO, 'default'),
  fc.record({ ttft_ms: fc.integer({ min: 0, max: 5000 }), itl_ms: fc.integer({ min: 0, max: 200 }), e2e_ms: fc.integer({ min: 0, max: 60_000 }) }, { requiredKeys: [] }),
  { minKeys: 1, maxKeys: 3 },
);

/** Options of {@link specArb}. */
export interface SpecArbOptions {
  /** Allow `context_growth: none` (its prompts are not reproducible from a TraceV2 row). Default false. */
  growthNone?: boolean;
  /** Most requests a generated spec asks for. Default 300. */
  maxRequests?: number;
  /** Most clients a generated spec has. Default 3. */
  maxClients?: number;
  /**
   * Sometimes make every client a closed-loop `concurrency` client (users with think time).
   * Default false: their later requests are new turns, which a TraceV2 replay reads as context.
   */
  concurrency?: boolean;
}

/**
 * Any valid WorkloadSpec v2 object (it passes `parseWorkloadSpec`): 1 to `maxClients` clients
 * with mixed SLO classes, tenants, arrival processes, length distributions, shared prefixes,
 * timeouts and multi-turn sessions (closed or open loop, one or many per client), `num_requests`
 * at most `maxRequests` (closed-loop sessions' follow-ups come on top, as in BLIS), at least one
 * client with a positive rate fraction, multimodal prompts on some single-turn clients, and
 * sometimes cohorts (diurnal, spike and drain patterns, shared or per-member prefixes, multimodal
 * prompts).
 */
export function specArb(opts: SpecArbOptions = {}): fc.Arbitrary<WorkloadSpecInput> {
  const client = fc.record(
    {
      tenant_id: fc.constantFrom('', 't1', 't2'),
      slo_class: fc.constantFrom(...SLO),
      // 0 (sends nothing) or a share that cannot underflow to a rate of 0 beside a cohort's.
      rate_fraction: fc.oneof(fc.constant(0), fc.double({ min: 0.001, max: 1, noNaN: true })),
      streaming: fc.boolean(),
      arrival: arrivalArb,
      input_distribution: distributionArb,
      output_distribution: distributionArb,
      prefix_group: fc.constantFrom('g1', 'g2', 'with,comma "quoted"'),
      prefix_length: fc.integer({ min: 0, max: 600 }),
      timeout: fc.integer({ min: 0, max: 5_000_000 }),
      closed_loop: fc.boolean(),
      multimodal: multimodalArb,
      reasoning: fc.record(
        {
          // Drawn per round on the client's stream, as BLIS draws it; the ratio itself moves nothing.
          reason_ratio_distribution: reasonRatioArb,
          multi_turn: fc.record(
          {
            max_rounds: fc.integer({ min: 1, max: 6 }),
            think_time_us: fc.integer({ min: 0, max: 2_000_000 }),
            context_growth: opts.growthNone === true ? fc.constantFrom('accumulate' as const, 'none' as const) : fc.constant('accumulate' as const),
            single_session: fc.boolean(),
          },
          { requiredKeys: ['max_rounds', 'think_time_us', 'context_growth'] },
        ),
        },
        { requiredKeys: ['multi_turn'] },
      ),
    },
    { requiredKeys: ['rate_fraction', 'input_distribution', 'output_distribution'] },
  );
  const cohort = fc.record(
    {
      population: fc.integer({ min: 1, max: 4 }),
      rate_fraction: fc.double({ min: 0.05, max: 1, noNaN: true }),
      slo_class: fc.constantFrom(...SLO),
      streaming: fc.boolean(),
      arrival: arrivalArb,
      input_distribution: distributionArb,
      output_distribution: distributionArb,
      prefix_group: fc.constantFrom('g1', 'c1'),
      prefix_sharing: fc.constantFrom('shared' as const, 'per_member' as const),
      diurnal: fc.record({ peak_hour: fc.integer({ min: 0, max: 23 }), peak_to_trough_ratio: fc.double({ min: 1, max: 10_000, noNaN: true }) }),
      spike: fc.record({ start_time_us: fc.integer({ min: 0, max: 10_000_000 }), duration_us: fc.integer({ min: 1, max: 10_000_000 }) }),
      drain: fc.record({ start_time_us: fc.integer({ min: 0, max: 10_000_000 }), ramp_duration_us: fc.integer({ min: 1, max: 20_000_000 }) }),
      multimodal: multimodalArb,
    },
    { requiredKeys: ['population', 'rate_fraction', 'input_distribution', 'output_distribution'] },
  );
  const users = fc.record({
    id: fc.constant(''),
    rate_fraction: fc.constant(0),
    concurrency: fc.integer({ min: 1, max: 6 }),
    think_time_us: fc.integer({ min: 0, max: 500_000 }),
    slo_class: fc.constantFrom(...SLO),
    input_distribution: distributionArb,
    output_distribution: distributionArb,
    prefix_group: fc.constantFrom('g1', 'g2'),
  });
  const usersSpec = fc
    .record({
      seed: fc.integer({ min: -1000, max: 1_000_000 }),
      num_requests: fc.integer({ min: 1, max: opts.maxRequests ?? 300 }),
      clients: fc.array(users, { minLength: 1, maxLength: opts.maxClients ?? 3 }),
    })
    .map(({ clients, ...s }) => ({ version: '2' as const, aggregate_rate: 0, ...s, clients: clients.map((c, i) => ({ ...c, id: `users-${i}` })) }));
  const rated = fc
    .record(
      {
        seed: fc.integer({ min: -1000, max: 1_000_000 }),
        aggregate_rate: fc.double({ min: 0.01, max: 5000, noNaN: true }),
        num_requests: fc.integer({ min: 1, max: opts.maxRequests ?? 300 }),
        clients: fc.array(client, { minLength: 1, maxLength: opts.maxClients ?? 3 }),
        cohorts: fc.array(cohort, { minLength: 1, maxLength: 2 }),
        goodput_slo_targets: goodputTargetsArb,
      },
      { requiredKeys: ['seed', 'aggregate_rate', 'num_requests', 'clients'] },
    )
    .filter((s) => s.clients.some((c) => c.rate_fraction > 0))
    .map(({ clients, cohorts, ...s }) => ({
      version: '2' as const,
      ...s,
      // BLIS draws multimodal prompts on the single-shot path only: a multi-turn client has none.
      clients: clients.map(({ multimodal, ...c }, i) => ({ id: `client-${i}`, ...c, ...(multimodal !== undefined && c.reasoning?.multi_turn === undefined ? { multimodal } : {}) })),
      ...(cohorts !== undefined ? { cohorts: cohorts.map((c, i) => ({ id: `cohort-${i}`, ...c })) } : {}),
    }));
  return opts.concurrency === true ? fc.oneof(rated, usersSpec) : rated;
}
