import { MAX_CLOCK_US } from '@blis/engine';
import * as z from 'zod';
import { RUN_LIMITS } from '../limits/run-limits.js';

const nonNeg = z.number().nonnegative().finite();
const nonNegInt = z.number().int().nonnegative();

/**
 * A sampled delay in µs: Gaussian with this mean and standard deviation, clamped at 0; a
 * standard deviation of 0 gives the mean exactly and draws nothing from the random stream.
 * (BLIS's YAML writes these in seconds; the CLI converts.)
 */
export const DelaySchema = z.object({ meanUs: nonNeg.max(MAX_CLOCK_US), stddevUs: nonNeg.max(MAX_CLOCK_US).default(0) }).strict();

/**
 * One draw of a delay, in whole µs (the simulation's ticks; BLIS truncates its draw to int64 µs
 * too): `normal` is called only when the delay has a standard deviation. A fractional delay
 * used to put fractional times on the event queue, which the KV offload tiers refuse.
 */
export function sampleDelay(d: { meanUs: number; stddevUs: number }, normal: () => number): number {
  if (d.stddevUs <= 0) return Math.trunc(d.meanUs);
  // In seconds and in BLIS's order of operations (`DelaySpec.Sample`), so a draw truncates to
  // the same µs as BLIS's.
  const secs = normal() * (d.stddevUs / 1e6) + d.meanUs / 1e6;
  return secs < 0 ? 0 : Math.trunc(secs * 1e6);
}

/**
 * The autoscaler (BLIS's `autoscaler:` section plus what BLIS lacks: a policy choice, replica
 * bounds and a cooldown). Off while `intervalUs` is 0.
 */
export const AutoscalingSchema = z
  .object({
    /** µs between evaluations; 0 = no autoscaler (BLIS `--model-autoscaler-interval-us`). */
    intervalUs: nonNeg.default(0),
    /** `wva-saturation` (BLIS's analyzer), `threshold`, `target-utilization`, `queue-depth`, or a registered one. */
    policy: z.string().min(1).default('wva-saturation'),
    params: z.record(z.string(), z.unknown()).default({}),
    /** Fewest replicas per scaling group: scale-down stops here (1; 0 allows scale to zero). */
    minReplicas: nonNegInt.default(1),
    /** Most replicas per scaling group; unset = unbounded (node pools still limit placement). */
    maxReplicas: z.number().int().positive().optional(),
    /** A direction's signal must persist this long before it acts (BLIS's windows; 0 = at once). */
    scaleUpStabilizationWindowUs: nonNeg.default(0),
    scaleDownStabilizationWindowUs: nonNeg.default(0),
    /** No action within this long of the group's previous applied action (0 = none). */
    cooldownUs: nonNeg.default(0),
    /** Lag between a passing decision and its actuation (BLIS's `hpa_scrape_delay`). */
    scrapeDelay: DelaySchema.default({ meanUs: 0, stddevUs: 0 }),
  })
  .strict()
  .superRefine((a, ctx) => {
    if (a.maxReplicas !== undefined && a.minReplicas > a.maxReplicas)
      ctx.addIssue({ code: 'custom', path: ['minReplicas'], message: `minReplicas (${a.minReplicas}) must be <= maxReplicas (${a.maxReplicas})` });
  });

/** A node pool (BLIS's `node_pools:` entry): where replicas are placed and what they cost. */
export const NodePoolSchema = z
  .object({
    name: z.string().min(1),
    /** Accelerator type; replicas of a run on this hardware are placed only on matching pools. */
    gpuType: z.string().min(1),
    gpusPerNode: z.number().int().positive(),
    gpuMemoryGib: z.number().positive().finite(),
    // A node hosts at least one replica: more nodes than a run's instances is never needed.
    initialNodes: nonNegInt.max(RUN_LIMITS.maxInstances).default(0),
    minNodes: nonNegInt.max(RUN_LIMITS.maxInstances).default(0),
    maxNodes: nonNegInt.max(RUN_LIMITS.maxInstances),
    /** Time from asking for a node to it being ready. */
    provisioningDelay: DelaySchema.default({ meanUs: 0, stddevUs: 0 }),
    /** Dollars per hour, charged per replica placed on this pool. */
    costPerHour: nonNeg.default(0),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.initialNodes > p.maxNodes)
      ctx.addIssue({ code: 'custom', path: ['initialNodes'], message: `initialNodes (${p.initialNodes}) must be <= maxNodes (${p.maxNodes})` });
    if (p.minNodes > p.maxNodes) ctx.addIssue({ code: 'custom', path: ['minNodes'], message: `minNodes (${p.minNodes}) must be <= maxNodes (${p.maxNodes})` });
  });

export const NodePoolsSchema = z.array(NodePoolSchema).superRefine((pools, ctx) => {
  const seen = new Set<string>();
  pools.forEach((p, i) => {
    if (seen.has(p.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate node pool name ${JSON.stringify(p.name)}` });
    seen.add(p.name);
  });
});

/** How a drained replica treats its requests. */
export const DrainPolicySchema = z.enum(['wait', 'immediate', 'redirect']);

/** Instance lifecycle (BLIS's `instance_lifecycle:` plus the keys its parser refuses). */
export const LifecycleSchema = z
  .object({
    /** Time a placed replica spends loading the model before it can serve. */
    loadingDelay: DelaySchema.default({ meanUs: 0, stddevUs: 0 }),
    /**
     * Node provisioning delay of the implicit pool used when no node pools are configured (one
     * node per replica, unlimited, no cost). Configured pools have their own.
     */
    provisioningDelay: DelaySchema.default({ meanUs: 0, stddevUs: 0 }),
    /** Replicas that exist at t = 0 skip loading (BLIS's `warm_start_initial_instances`). */
    warmStartInitialInstances: z.boolean().default(false),
    /** A new replica is warming up until this many requests routed to it complete (0 = none). */
    warmUpRequestCount: nonNegInt.default(0),
    /** ... or until this long has passed since it became routable, whichever comes first (0 = no time limit). */
    warmUpDurationUs: nonNeg.default(0),
    /** TTFT (and E2E by as much) of a request served warming up is multiplied by this (>= 1). */
    warmUpTtftFactor: z.number().min(1).finite().default(1),
    drainPolicy: DrainPolicySchema.default('wait'),
  })
  .strict();

export type DelaySettings = z.output<typeof DelaySchema>;
export type AutoscalingConfig = z.output<typeof AutoscalingSchema>;
export type AutoscalingConfigInput = z.input<typeof AutoscalingSchema>;
export type NodePoolConfig = z.output<typeof NodePoolSchema>;
export type NodePoolConfigInput = z.input<typeof NodePoolSchema>;
export type LifecycleConfig = z.output<typeof LifecycleSchema>;
export type LifecycleConfigInput = z.input<typeof LifecycleSchema>;
export type DrainPolicy = z.output<typeof DrainPolicySchema>;
