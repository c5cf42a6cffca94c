import * as z from 'zod';
import { SATURATION_DETECTOR_NAMES } from '@blis/policies';

const nonNegInt = z.number().int().nonnegative();

const DEFAULTS = {
  enabled: false,
  saturationDetector: 'never' as const,
  maxGatewayQueueDepth: 0,
  queueDepthThreshold: 5,
  kvUtilizationThreshold: 0.8,
  maxConcurrency: 100,
  saturationLimit: 1,
  dispatchOrder: 'fifo' as const,
  sloTargetsUs: {},
  fairnessPolicy: 'global-strict' as const,
  perBandCapacity: 0,
  usageLimitThreshold: 1,
  dispatchTickIntervalUs: 1000,
  requestTtlUs: 0,
  queueShedding: false,
  inFlightEviction: false,
};

/**
 * Gateway flow control (BLIS's `--flow-control` family, llm-d GIE's flow controller). Off by
 * default; on, with BLIS's default detector `never`, the gateway passes every request straight
 * through. The thresholds also shape `RouterState.saturation` when it is off.
 */
export const FlowControlSchema = z
  .object({
    enabled: z.boolean().default(DEFAULTS.enabled),
    /** Which saturation detector gates dispatch (BLIS --saturation-detector). */
    saturationDetector: z.enum(SATURATION_DETECTOR_NAMES).default(DEFAULTS.saturationDetector),
    /** Requests held at most at the gateway; 0 = unbounded (BLIS --max-gateway-queue-depth). */
    maxGatewayQueueDepth: nonNegInt.default(DEFAULTS.maxGatewayQueueDepth),
    /** Utilization detector: wait-queue depth at which an instance counts as full (--queue-depth-threshold). */
    queueDepthThreshold: z.number().positive().finite().default(DEFAULTS.queueDepthThreshold),
    /** Utilization detector: KV utilisation at which an instance counts as full (--kv-cache-util-threshold). */
    kvUtilizationThreshold: z.number().positive().finite().default(DEFAULTS.kvUtilizationThreshold),
    /** Concurrency detector: requests in flight per instance at saturation (--max-concurrency). */
    maxConcurrency: z.number().int().positive().default(DEFAULTS.maxConcurrency),
    /** Scales every band's ceiling; 1 is BLIS's and GIE's. */
    saturationLimit: z.number().positive().finite().default(DEFAULTS.saturationLimit),
    /** fifo | priority | slo-deadline (--dispatch-order). */
    dispatchOrder: z.enum(['fifo', 'priority', 'slo-deadline']).default(DEFAULTS.dispatchOrder),
    /** TTFT target per SLO class in µs, for slo-deadline (--slo-targets). */
    sloTargetsUs: z.record(z.string().min(1), z.number().int().positive()).default(DEFAULTS.sloTargetsUs),
    /** global-strict | round-robin across a band's tenants (--fairness-policy). */
    fairnessPolicy: z.enum(['global-strict', 'round-robin']).default(DEFAULTS.fairnessPolicy),
    /** Requests held at most per priority band; 0 = unbounded (--per-band-capacity). */
    perBandCapacity: nonNegInt.default(DEFAULTS.perBandCapacity),
    /** Ceiling of the lowest band, in (0, 1] (--usage-limit-threshold). */
    usageLimitThreshold: z.number().gt(0).lte(1).default(DEFAULTS.usageLimitThreshold),
    /** µs between dispatch attempts while requests wait; 0 = the default 1 ms (--dispatch-tick-interval). */
    dispatchTickIntervalUs: nonNegInt.default(DEFAULTS.dispatchTickIntervalUs),
    /** µs a request may wait at the gateway; 0 = no limit (--request-ttl). */
    requestTtlUs: nonNegInt.default(DEFAULTS.requestTtlUs),
    /** A full queue displaces its least urgent sheddable request (--queue-shedding; BLIS's, not GIE's). */
    queueShedding: z.boolean().default(DEFAULTS.queueShedding),
    /** Saturated with non-sheddable work waiting: evict a sheddable request in flight (--in-flight-eviction; BLIS's). */
    inFlightEviction: z.boolean().default(DEFAULTS.inFlightEviction),
  })
  .strict()
  .default(DEFAULTS);

export type FlowControlConfig = z.infer<typeof FlowControlSchema>;
