import * as z from 'zod';
import { ClientSchema } from '../client-schema.js';

/** Members one cohort may expand into (BLIS's maxCohortPopulation). */
export const MAX_COHORT_POPULATION = 100_000;

const usTime = z.number().int().nonnegative();
const usSpan = z.number().int().positive();

/**
 * A population of like clients, BLIS's CohortSpec (sim/workload/spec.go): every field of a
 * client but `id` (each member is `<id>-<j>`), `lifecycle`, which its `diurnal`, `spike` and
 * `drain` patterns make, and the closed-loop `concurrency` and `think_time_us` (BLIS's cohorts are
 * rate-based).
 */
export const CohortSchema = ClientSchema.omit({ id: true, lifecycle: true, concurrency: true, think_time_us: true }).extend({
  id: z.string().min(1),
  /** Clients the cohort stands for; each gets `rate_fraction / population`. */
  population: z.number().int().positive().max(MAX_COHORT_POPULATION),
  /** The cohort's share of `aggregate_rate`, split evenly among its members (> 0). */
  rate_fraction: z.number().positive(),
  /** `shared` (default): one prefix for the cohort; `per_member`: member j's group is `<prefix_group>-<j>`. */
  prefix_sharing: z.enum(['shared', 'per_member']).optional(),
  /** 24 one-hour windows over the first simulated day, each active for the hour's share of the peak rate. */
  diurnal: z.strictObject({ peak_hour: z.number().int().min(0).max(23), peak_to_trough_ratio: z.number().min(1) }).optional(),
  /** One window `[start_time_us, start_time_us + duration_us)`; its `trace_rate` (req/s) is the cohort's, split among members. */
  spike: z.strictObject({ start_time_us: usTime, duration_us: usSpan, trace_rate: z.number().nonnegative().optional() }).optional(),
  /** Full rate until `start_time_us`, then a ramp to 0 over `ramp_duration_us` in 10 steps. */
  drain: z.strictObject({ start_time_us: usTime, ramp_duration_us: usSpan }).optional(),
});

export type CohortSpec = z.output<typeof CohortSchema>;
