import fc from 'fast-check';
import type { FlowControlConfig } from '../flow-control/flow-control-schema.js';

/**
 * Flow-control configs over every option: each detector with small thresholds (so the gateway
 * really holds requests), each dispatch order and fairness policy, bounded bands and queues with
 * and without shedding, TTLs, in-flight eviction, head-of-line gating and tick intervals.
 */
export function flowControlConfigArb(): fc.Arbitrary<FlowControlConfig> {
  return fc.record({
    enabled: fc.constant(true),
    saturationDetector: fc.constantFrom('utilization' as const, 'concurrency' as const, 'never' as const),
    maxGatewayQueueDepth: fc.constantFrom(0, 3, 8),
    queueDepthThreshold: fc.constantFrom(1, 5, 20),
    kvUtilizationThreshold: fc.constantFrom(0.3, 0.8, 1),
    maxConcurrency: fc.constantFrom(1, 2, 8),
    saturationLimit: fc.constantFrom(1, 1, 0.5, 2),
    dispatchOrder: fc.constantFrom('fifo' as const, 'priority' as const, 'slo-deadline' as const),
    sloTargetsUs: fc.constantFrom<Record<string, number>>({}, { critical: 10_000, standard: 200_000, batch: 1_000_000 }),
    fairnessPolicy: fc.constantFrom('global-strict' as const, 'round-robin' as const),
    perBandCapacity: fc.constantFrom(0, 2, 5),
    usageLimitThreshold: fc.constantFrom(1, 0.5),
    dispatchTickIntervalUs: fc.constantFrom(0, 1000, 20_000),
    requestTtlUs: fc.constantFrom(0, 0, 30_000, 300_000),
    queueShedding: fc.boolean(),
    inFlightEviction: fc.boolean(),
  });
}
