import fc from 'fast-check';

const SLO_CLASSES = ['critical', 'standard', 'sheddable', 'batch', 'background'] as const;

/** Options of {@link inlineSpecWorkloadArb}. */
export interface InlineWorkloadOptions {
  /** Fewest and most requests of the workload (defaults 1 and 60). */
  minRequests?: number;
  maxRequests?: number;
  /** Longest prompt a client's distribution can draw, tokens (default 900). */
  maxInputTokens?: number;
  /** Longest answer, tokens (default 40). */
  maxOutputTokens?: number;
  /** Allow multi-turn sessions (closed-loop rounds). Default true. */
  sessions?: boolean;
  /** Allow per-request deadlines (timeouts). Default true. */
  timeouts?: boolean;
  /** Aggregate rates (requests/s) to pick from. Default 5, 50, 200 and 1,000. */
  rates?: readonly number[];
}

/** The inline `{kind: 'spec', spec}` workload of a `SimulationConfigInput`. */
export interface InlineSpecWorkload {
  kind: 'spec';
  spec: Record<string, unknown>;
}

/** A token-length distribution bounded to `[1, max]`, in three shapes. */
function lengthArb(max: number): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    fc.integer({ min: 1, max }).map((value) => ({ type: 'constant', params: { value } })),
    fc
      .record({ mean: fc.integer({ min: 1, max }), sd: fc.integer({ min: 0, max: Math.max(1, Math.round(max / 2)) }) })
      .map(({ mean, sd }) => ({ type: 'gaussian', params: { mean, std_dev: sd, min: 1, max } })),
    fc.integer({ min: 1, max }).map((mean) => ({ type: 'exponential', params: { mean, max } })),
  );
}

/**
 * An inline WorkloadSpec v2 workload with 1 to 3 clients that mix SLO classes, tenants, prefix
 * groups (shared leading blocks), arrival processes, deadlines and multi-turn sessions, at a
 * rate from a trickle to a burst; small enough that a run takes milliseconds.
 */
export function inlineSpecWorkloadArb(options: InlineWorkloadOptions = {}): fc.Arbitrary<InlineSpecWorkload> {
  const maxIn = options.maxInputTokens ?? 900;
  const maxOut = options.maxOutputTokens ?? 40;
  const client = fc.record({
    slo_class: fc.constantFrom(...SLO_CLASSES),
    tenant_id: fc.constantFrom('a', 'b', 'c'),
    rate_fraction: fc.integer({ min: 1, max: 4 }),
    arrival: fc.constantFrom({ process: 'poisson' }, { process: 'constant' }, { process: 'bursty', alpha: 1.5 }, { process: 'gamma', cv: 2 }),
    input_distribution: lengthArb(maxIn),
    output_distribution: lengthArb(maxOut),
    prefix_group: fc.constantFrom('g0', 'g1', 'g2', 'g3'),
    prefix_length: fc.integer({ min: 0, max: Math.min(320, maxIn) }),
    // Mostly none; otherwise anything from before the alpha queueing delay ends to long after.
    timeout:
      options.timeouts === false ? fc.constant(0) : fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 300_000 }) }),
    rounds: options.sessions === false ? fc.constant(1) : fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 4 }) }),
    think: fc.constantFrom(0, 5_000, 50_000),
    // Sometimes multimodal prompts (single-turn clients only, as BLIS draws them): text plus
    // images and audio, within the prompt bound.
    multimodal: fc.option(
      fc
        .record({ text: fc.integer({ min: 1, max: Math.max(1, Math.floor(maxIn / 4)) }), item: fc.integer({ min: 1, max: Math.max(1, Math.floor(maxIn / 4)) }), count: fc.integer({ min: 1, max: 2 }), audio: fc.boolean() })
        .map(({ text, item, count, audio }) => ({
          text_distribution: { type: 'constant', params: { value: text } },
          [audio ? 'audio_distribution' : 'image_distribution']: { type: 'gaussian', params: { mean: item, std_dev: item / 4, min: 1, max: item } },
          [audio ? 'audio_count_distribution' : 'image_count_distribution']: { type: 'constant', params: { value: count } },
        })),
      { freq: 3, nil: undefined },
    ),
  });
  return fc
    .record({
      seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      rate: fc.constantFrom(...(options.rates ?? [5, 50, 200, 1_000])),
      requests: fc.integer({ min: options.minRequests ?? 1, max: options.maxRequests ?? 60 }),
      clients: fc.array(client, { minLength: 1, maxLength: 3 }),
    })
    .map(({ seed, rate, requests, clients }) => ({
      kind: 'spec' as const,
      spec: {
        version: '2',
        seed,
        aggregate_rate: rate,
        num_requests: requests,
        clients: clients.map(({ rounds, think, multimodal, ...c }, i) => ({
          id: `client-${i}`,
          ...c,
          ...(rounds === 1 && multimodal !== undefined ? { multimodal } : {}),
          ...(rounds > 1 ? { reasoning: { multi_turn: { max_rounds: rounds, think_time_us: think } } } : {}),
        })),
      },
    }));
}
