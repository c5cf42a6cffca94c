import { MAX_CLOCK_TEXT, MAX_CLOCK_US, minRateWithinClock } from '@blis/engine';
import * as z from 'zod';
import { MAX_TOKENS_PER_REQUEST } from './request-limits.js';

const pos = z.number().positive();
const nonNeg = z.number().nonnegative();
const posInt = z.number().int().positive();

/** A length a spec states outright (a constant, a mean, a lower bound): at most MAX_TOKENS_PER_REQUEST. */
const tokens = pos.max(MAX_TOKENS_PER_REQUEST);
/**
 * A clamp's upper bound may pass the tokens-per-request limit (lengths drawn are checked against
 * it), but not 2^53: past it a length is no longer an exact integer, and 1e300 is no bound.
 */
const clampMax = pos.max(Number.MAX_SAFE_INTEGER);
const bounded = { min: nonNeg.max(MAX_TOKENS_PER_REQUEST).optional(), max: clampMax.optional() };
export const DistributionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('gaussian'), params: z.strictObject({ mean: tokens, std_dev: nonNeg, min: nonNeg.max(MAX_TOKENS_PER_REQUEST), max: clampMax }) }),
  z.strictObject({ type: z.literal('exponential'), params: z.strictObject({ mean: tokens, ...bounded }) }),
  z.strictObject({ type: z.literal('lognormal'), params: z.strictObject({ mu: z.number(), sigma: nonNeg, ...bounded }) }),
  z.strictObject({
    type: z.literal('pareto_lognormal'),
    params: z.strictObject({ alpha: pos, xm: pos, mu: z.number(), sigma: nonNeg, mix_weight: z.number().min(0).max(1), ...bounded }),
  }),
  z.strictObject({ type: z.literal('constant'), params: z.strictObject({ value: tokens }) }),
  z.strictObject({
    type: z.literal('empirical'),
    params: z
      .strictObject({ file: z.string().min(1).optional(), column: z.string().optional(), values: z.array(tokens).min(1).optional() })
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
    prefix_length: z.number().int().nonnegative().max(MAX_TOKENS_PER_REQUEST).default(50),
    network: z.strictObject({ rtt_ms: nonNeg.default(0), bandwidth_mbps: pos.optional() }).optional(),
    slo_target_us: z.number().int().nonnegative().default(0),
    /** The LoRA adapter its requests ask for (an id of --lora-config's registry); unset = the base model. */
    adapter: z.string().optional(),
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
    // Go BLIS reads `version: 2` unquoted as the string too. A v1 spec (or one without a version)
    // arrives here upgraded (spec-upgrade.ts); "1" is listed so that a wrong version names it.
    version: z.union([z.literal('2'), z.literal(2), z.literal('1'), z.literal(1)]).transform(() => '2' as const),
    seed: z.number().int().default(42),
    category: z.string().default(''),
    /**
     * Requests/s over all clients, shared by `rate_fraction`. 0 is BLIS's absolute rate mode:
     * every client then needs lifecycle windows, each with a `trace_rate` used as the rate.
     */
    aggregate_rate: nonNeg,
    num_requests: posInt.optional(),
    /** Stop generating arrivals after this tick (µs). */
    horizon: pos.optional(),
    clients: z.array(ClientSchema).min(1),
  })
  .superRefine((s, ctx) => {
    // In absolute rate mode rates come from the windows' trace_rate; rate_fraction is unused.
    if (s.aggregate_rate > 0 && s.clients.every((c) => c.rate_fraction === 0))
      ctx.addIssue({ code: 'custom', path: ['clients'], message: 'at least one client with rate_fraction > 0', params: { found: 'every rate_fraction is 0' } });
    if (s.horizon !== undefined && s.horizon > MAX_CLOCK_US) ctx.addIssue({ code: 'custom', path: ['horizon'], message: `at most ${MAX_CLOCK_TEXT}`, params: { found: String(s.horizon) } });
    // Without a horizon every request arrives: at 1e-300 req/s, past the clock's range.
    if (s.horizon === undefined && s.num_requests !== undefined && Number.isSafeInteger(s.num_requests) && s.aggregate_rate > 0 && (s.num_requests / s.aggregate_rate) * 1e6 > MAX_CLOCK_US)
      ctx.addIssue({
        code: 'custom',
        path: ['aggregate_rate'],
        message: `at least ${minRateWithinClock(s.num_requests)} requests per second (${s.num_requests} requests arriving within ${MAX_CLOCK_TEXT})`,
        params: { found: String(s.aggregate_rate) },
      });
    const checkBounds = (d: { params: unknown } | undefined, path: (string | number)[]) => {
      const p = d?.params as { min?: number; max?: number } | undefined;
      if (p?.min !== undefined && p.max !== undefined && p.min > p.max)
        ctx.addIssue({ code: 'custom', path: [...path, 'params', 'min'], message: `min <= max (${p.max})`, params: { found: String(p.min) } });
    };
    s.clients.forEach((c, i) => {
      for (const which of ['input_distribution', 'output_distribution'] as const) checkBounds(c[which], ['clients', i, which]);
      c.lifecycle?.windows.forEach((w, j) => {
        const at = ['clients', i, 'lifecycle', 'windows', j];
        // BLIS (spec.go validateClient): a window must have end_us > start_us.
        if (w.end_us <= w.start_us) ctx.addIssue({ code: 'custom', path: [...at, 'end_us'], message: `a number > start_us (${w.start_us})`, params: { found: String(w.end_us) } });
        for (const which of ['input_distribution', 'output_distribution'] as const) checkBounds(w[which], [...at, which]);
      });
    });
    if (s.aggregate_rate === 0) {
      // BLIS (spec.go Validate): absolute rate mode needs every client's windows to carry trace_rate.
      s.clients.forEach((c, i) => {
        if (c.lifecycle === undefined)
          ctx.addIssue({ code: 'custom', path: ['clients', i, 'lifecycle'], message: 'lifecycle windows, each with a trace_rate (aggregate_rate is 0: absolute rate mode)', params: { found: 'nothing (the field is missing)' } });
        c.lifecycle?.windows.forEach((w, j) => {
          if (w.trace_rate === undefined)
            ctx.addIssue({ code: 'custom', path: ['clients', i, 'lifecycle', 'windows', j, 'trace_rate'], message: 'a trace_rate in requests/s (aggregate_rate is 0: absolute rate mode)', params: { found: 'nothing (the field is missing)' } });
        });
      });
    } else {
      // With per-window overrides BLIS generates only from lifecycle windows: a client without
      // windows would silently send nothing (generator.go generateTimeVaryingRequests). Refused.
      const owner = s.clients.find((c) => c.lifecycle?.windows.some(hasWindowOverrides));
      if (owner !== undefined)
        s.clients.forEach((c, i) => {
          if (c.lifecycle === undefined && c.rate_fraction > 0)
            ctx.addIssue({
              code: 'custom',
              path: ['clients', i, 'lifecycle'],
              message: `lifecycle windows (client "${owner.id}" has per-window overrides, and then a client without windows sends nothing)`,
              params: { found: 'nothing (the field is missing)' },
            });
        });
    }
    if (s.horizon !== undefined)
      for (const i of lateWindowIssues(s, s.horizon, `the horizon (${s.horizon} µs)`)) ctx.addIssue({ code: 'custom', path: i.path, message: i.expected, params: { found: i.found } });
    const ids = new Set<string>();
    s.clients.forEach((c, i) => {
      if (ids.has(c.id)) ctx.addIssue({ code: 'custom', path: ['clients', i, 'id'], message: 'a unique client id', params: { found: `"${c.id}" twice` } });
      ids.add(c.id);
    });
  });

/**
 * Windows that all open at or after the horizon leave nothing to send: a spec whose every sending
 * client is like that would run 0 requests and report it as a result. One issue per such client,
 * at its earliest window's `start_us`. `horizonText` names the horizon (the spec's, or a run's).
 */
export function lateWindowIssues(
  s: Pick<WorkloadSpec, 'aggregate_rate' | 'clients'>,
  horizon: number,
  horizonText: string,
): { path: (string | number)[]; expected: string; found: string }[] {
  const sends = (c: ClientSpec) => s.aggregate_rate === 0 || c.rate_fraction > 0;
  const late = (c: ClientSpec) => c.lifecycle?.windows.every((w) => w.start_us >= horizon) === true;
  if (!s.clients.some(sends) || !s.clients.filter(sends).every(late)) return [];
  return s.clients.flatMap((c, i) => {
    if (!sends(c) || c.lifecycle === undefined) return [];
    const windows = c.lifecycle.windows;
    const first = windows.reduce((a, w, j) => (w.start_us < windows[a].start_us ? j : a), 0);
    return [
      {
        path: ['clients', i, 'lifecycle', 'windows', first, 'start_us'],
        expected: `a window starting before ${horizonText}; with every window after it the workload has no request`,
        found: String(windows[first].start_us),
      },
    ];
  });
}

/** Whether a window overrides anything of its client's (BLIS's `hasPerWindowParameters`). */
export function hasWindowOverrides(w: WindowSpec): boolean {
  return w.trace_rate !== undefined || w.arrival !== undefined || w.input_distribution !== undefined || w.output_distribution !== undefined;
}

export type WindowSpec = z.output<typeof WindowSchema>;
export type WorkloadSpec = z.output<typeof WorkloadSpecSchema>;
export type WorkloadSpecInput = z.input<typeof WorkloadSpecSchema>;
export type ClientSpec = z.output<typeof ClientSchema>;
