import * as z from 'zod';
import { DistributionSchema } from './distribution-schema.js';
import { MultimodalSchema } from './multimodal/multimodal-schema.js';
import { MAX_TOKENS_PER_REQUEST } from './request-limits.js';

export { DistributionSchema };

/** Virtual users of one client: each is a session in memory for the whole run. */
export const MAX_CONCURRENCY = 1_000_000;

const pos = z.number().positive();
const nonNeg = z.number().nonnegative();
const posInt = z.number().int().positive();

export const ArrivalSchema = z.discriminatedUnion('process', [
  z.strictObject({ process: z.literal('poisson') }),
  z.strictObject({ process: z.literal('gamma'), cv: pos.optional(), shape: pos.optional(), scale: pos.optional() }),
  z.strictObject({ process: z.literal('weibull'), cv: pos.optional(), shape: pos.optional(), scale: pos.optional() }),
  z.strictObject({ process: z.literal('constant') }),
  z.strictObject({ process: z.literal('bursty'), alpha: z.number().gt(1).optional() }),
  z.strictObject({ process: z.literal('periodic'), jitter: z.number().min(0).max(1).optional() }),
]);

/**
 * One active window of a client's lifecycle, `[start_us, end_us)` in µs, with BLIS's optional
 * per-window overrides (`ActiveWindow`, sim/workload/spec.go). Any override puts the whole spec
 * on the per-window generator; see `trace_rate`.
 */
export const WindowSchema = z.strictObject({
  start_us: nonNeg,
  end_us: pos,
  /**
   * Requests/s. With `aggregate_rate: 0` (absolute rate mode) the client's rate in this window;
   * with `aggregate_rate > 0` a weight: the window gets `aggregate_rate × trace_rate / Σ` of the
   * co-active windows' rates (a window without one weighs its client's `rate_fraction`).
   */
  trace_rate: nonNeg.optional(),
  /** Arrival process inside this window (overrides the client's). */
  arrival: ArrivalSchema.optional(),
  /** Prompt lengths of requests arriving in this window (overrides the client's). */
  input_distribution: DistributionSchema.optional(),
  /** Answer lengths of requests arriving in this window (overrides the client's). */
  output_distribution: DistributionSchema.optional(),
});

export const SLO_CLASSES = ['critical', 'standard', 'sheddable', 'batch', 'background'] as const;

/** The class a simulated request of a client without `slo_class` gets. */
export const DEFAULT_SLO_CLASS = 'standard';

export const ClientSchema = z
  .strictObject({
    id: z.string().min(1),
    tenant_id: z.string().default(''),
    /**
     * Unset: the request source's default, {@link DEFAULT_SLO_CLASS} when simulating; `blis
     * observe` sends such requests without a class, as BLIS does. Kept unset here so the two can differ.
     * `""` is unset too, as in BLIS (whose `blis convert preset` writes it).
     */
    slo_class: z
      .enum(SLO_CLASSES)
      .or(z.literal('').transform(() => undefined))
      .optional(),
    rate_fraction: nonNeg,
    streaming: z.boolean().default(false),
    arrival: ArrivalSchema.default({ process: 'poisson' }),
    input_distribution: DistributionSchema,
    output_distribution: DistributionSchema,
    prefix_group: z.string().min(1).optional(),
    /**
     * The group's shared prefix, tokens, when this is the first client naming the group; unset or
     * 0: 50. Also, as in BLIS, the prefix a closed-loop session's later rounds repeat when their
     * context does not accumulate (unset: none).
     */
    prefix_length: z.number().int().nonnegative().max(MAX_TOKENS_PER_REQUEST).optional(),
    network: z.strictObject({ rtt_ms: nonNeg.default(0), bandwidth_mbps: pos.optional() }).optional(),
    slo_target_us: z.number().int().nonnegative().default(0),
    /** The LoRA adapter its requests ask for (an id of --lora-config's registry); unset = the base model. */
    adapter: z.string().optional(),
    /**
     * The model its requests ask for (BLIS routes them only to instances serving it). This
     * simulator serves one model, the run's `--model`: unset or that model; any other is refused
     * (BLIS rejects every such request at routing).
     */
    model: z.string().optional(),
    /**
     * Per-request deadline after arrival, µs; 0 = none. Unset: none, except for multi-turn
     * (closed-loop session) clients, whose rounds get BLIS's default of 300 s.
     */
    timeout: z.number().int().nonnegative().optional(),
    /**
     * Active windows (µs since start); the client sends only inside them. A window may also
     * override the client's rate (`trace_rate`), arrival process and length distributions.
     */
    lifecycle: z.strictObject({ windows: z.array(WindowSchema).min(1) }).optional(),
    /**
     * Virtual users, each holding one request in flight (BLIS's closed-loop `concurrency`): user u
     * sends its first at `u × think_time_us / concurrency` µs and each next one `think_time_us`
     * after its previous answer completes. Needs `rate_fraction: 0`.
     */
    concurrency: z.number().int().nonnegative().max(MAX_CONCURRENCY).optional(),
    /** A concurrency user's pause between an answer and its next request, µs. */
    think_time_us: z.number().int().nonnegative().optional(),
    /**
     * Whether multi-turn sessions run closed loop (BLIS's default when `reasoning.multi_turn` is
     * set): each later round is sent think time after the previous one completes. `false`: every
     * round is sent where BLIS places it when the session starts (open loop).
     */
    closed_loop: z.boolean().optional(),
    /**
     * Multimodal prompts (BLIS's `multimodal`): each prompt is drawn as text plus image, audio and
     * video tokens instead of from `input_distribution` (which is still required, as in BLIS). Not
     * with multi-turn sessions, concurrency users or per-window overrides, whose generators do not
     * draw it in BLIS.
     */
    multimodal: MultimodalSchema.optional(),
    reasoning: z
      .strictObject({
        // A ratio may be 0 (no reasoning share), which a length may not.
        reason_ratio_distribution: DistributionSchema.or(
          z.strictObject({ type: z.literal('gaussian'), params: z.strictObject({ mean: nonNeg, std_dev: nonNeg, min: nonNeg, max: nonNeg }) }),
        )
          .or(z.strictObject({ type: z.literal('constant'), params: z.strictObject({ value: nonNeg }) }))
          // BLIS's empirical form, a probability table (value -> probability), as `blis convert servegen` writes reasoning data's.
          .or(z.strictObject({ type: z.literal('empirical'), params: z.record(z.string().regex(/^-?\d+(\.\d+)?$/), nonNeg) }))
          .optional(),
        multi_turn: z
          .strictObject({
            max_rounds: posInt,
            think_time_us: z.number().int().nonnegative().default(0),
            /**
             * `accumulate`: each round's prompt is the previous prompt plus its answer plus the new
             * input. Unset, `none` or `""` (BLIS's empty value): every round's prompt is its own.
             */
            context_growth: z
              .enum(['accumulate', 'none'])
              .or(z.literal('').transform(() => 'none' as const))
              .default('none'),
            /** One session per client (its first arrival), as inference-perf's users; default false. */
            single_session: z.boolean().default(false),
          })
          .optional(),
      })
      .optional(),
  });

export type WindowSpec = z.output<typeof WindowSchema>;
export type ClientSpec = z.output<typeof ClientSchema>;
