import { z } from 'zod';

const pos = z.number().positive();
const nonNeg = z.number().nonnegative();
const posInt = z.number().int().positive();

const bounded = { min: nonNeg.optional(), max: pos.optional() };
export const DistributionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('gaussian'), params: z.strictObject({ mean: pos, std_dev: nonNeg, min: nonNeg, max: pos }) }),
  z.strictObject({ type: z.literal('exponential'), params: z.strictObject({ mean: pos, ...bounded }) }),
  z.strictObject({ type: z.literal('lognormal'), params: z.strictObject({ mu: z.number(), sigma: nonNeg, ...bounded }) }),
  z.strictObject({
    type: z.literal('pareto_lognormal'),
    params: z.strictObject({ alpha: pos, xm: pos, mu: z.number(), sigma: nonNeg, mix_weight: z.number().min(0).max(1), ...bounded }),
  }),
  z.strictObject({ type: z.literal('constant'), params: z.strictObject({ value: pos }) }),
  z.strictObject({
    type: z.literal('empirical'),
    params: z
      .strictObject({ file: z.string().min(1).optional(), column: z.string().optional(), values: z.array(pos).min(1).optional() })
      .refine((p) => (p.file === undefined) !== (p.values === undefined), { message: 'exactly one of file or values' }),
  }),
]);

export const ArrivalSchema = z.discriminatedUnion('process', [
  z.strictObject({ process: z.literal('poisson') }),
  z.strictObject({ process: z.literal('gamma'), cv: pos.optional(), shape: pos.optional(), scale: pos.optional() }),
  z.strictObject({ process: z.literal('weibull'), cv: pos.optional(), shape: pos.optional(), scale: pos.optional() }),
  z.strictObject({ process: z.literal('constant') }),
  z.strictObject({ process: z.literal('bursty'), alpha: z.number().gt(1).optional() }),
  z.strictObject({ process: z.literal('periodic'), jitter: z.number().min(0).max(1).optional() }),
]);

export const SLO_CLASSES = ['critical', 'standard', 'sheddable', 'batch', 'background'] as const;

export const ClientSchema = z
  .strictObject({
    id: z.string().min(1),
    tenant_id: z.string().default(''),
    slo_class: z.enum(SLO_CLASSES).default('standard'),
    rate_fraction: nonNeg,
    streaming: z.boolean().default(false),
    arrival: ArrivalSchema.default({ process: 'poisson' }),
    input_distribution: DistributionSchema,
    output_distribution: DistributionSchema,
    prefix_group: z.string().min(1).optional(),
    prefix_length: z.number().int().nonnegative().default(50),
    network: z.strictObject({ rtt_ms: nonNeg.default(0), bandwidth_mbps: pos.optional() }).optional(),
    slo_target_us: z.number().int().nonnegative().default(0),
    /**
     * Per-request deadline after arrival, µs; 0 = none. Unset: none, except for multi-turn
     * (closed-loop session) clients, whose rounds get BLIS's default of 300 s.
     */
    timeout: z.number().int().nonnegative().optional(),
    /** Active windows (µs since start); the client sends only inside them. */
    lifecycle: z.strictObject({ windows: z.array(z.strictObject({ start_us: nonNeg, end_us: pos })).min(1) }).optional(),
    reasoning: z
      .strictObject({
        reason_ratio_distribution: DistributionSchema.or(
          z.strictObject({ type: z.literal('gaussian'), params: z.strictObject({ mean: nonNeg, std_dev: nonNeg, min: nonNeg, max: nonNeg }) }),
        ).optional(),
        multi_turn: z
          .strictObject({
            max_rounds: posInt,
            think_time_us: z.number().int().nonnegative().default(0),
            context_growth: z.enum(['accumulate', 'none']).default('accumulate'),
          })
          .optional(),
      })
      .optional(),
  });

export const WorkloadSpecSchema = z
  .strictObject({
    // Go BLIS reads `version: 2` unquoted as the string too.
    version: z.union([z.literal('2'), z.literal(2)]).transform(() => '2' as const),
    seed: z.number().int().default(42),
    category: z.string().default(''),
    aggregate_rate: pos,
    num_requests: posInt.optional(),
    /** Stop generating arrivals after this tick (µs). */
    horizon: pos.optional(),
    clients: z.array(ClientSchema).min(1),
  })
  .superRefine((s, ctx) => {
    if (s.clients.every((c) => c.rate_fraction === 0))
      ctx.addIssue({ code: 'custom', path: ['clients'], message: 'at least one client with rate_fraction > 0', params: { found: 'every rate_fraction is 0' } });
    if (s.num_requests === undefined && s.horizon === undefined)
      ctx.addIssue({ code: 'custom', path: ['num_requests'], message: 'num_requests or horizon (an unbounded workload never ends)', params: { found: 'neither' } });
    s.clients.forEach((c, i) => {
      for (const which of ['input_distribution', 'output_distribution'] as const) {
        const p = c[which].params as { min?: number; max?: number };
        if (p.min !== undefined && p.max !== undefined && p.min > p.max)
          ctx.addIssue({ code: 'custom', path: ['clients', i, which, 'params', 'min'], message: `min <= max (${p.max})`, params: { found: String(p.min) } });
      }
    });
    const ids = new Set<string>();
    s.clients.forEach((c, i) => {
      if (ids.has(c.id)) ctx.addIssue({ code: 'custom', path: ['clients', i, 'id'], message: 'a unique client id', params: { found: `"${c.id}" twice` } });
      ids.add(c.id);
    });
  });

export type WorkloadSpec = z.output<typeof WorkloadSpecSchema>;
export type WorkloadSpecInput = z.input<typeof WorkloadSpecSchema>;
export type ClientSpec = z.output<typeof ClientSchema>;
