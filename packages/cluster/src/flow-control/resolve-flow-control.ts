import { type SaturationDetector, SloPriorityMap, createSaturationDetector } from '@blis/policies';
import { type FlowControlConfig, FlowControlSchema } from './flow-control-schema.js';
import type { FlowControlSettings } from './flow-control-settings.js';

/** BLIS's default dispatch tick, GIE's 1 ms dispatch ticker. */
const DEFAULT_TICK_US = 1000;

/** The settings the simulator runs with; a caller's own detector replaces the named one. */
export function resolveFlowControl(fc: FlowControlConfig, detector?: SaturationDetector): FlowControlSettings | undefined {
  if (!fc.enabled) return undefined;
  return {
    detector:
      detector ??
      createSaturationDetector(fc.saturationDetector, {
        queueDepthThreshold: fc.queueDepthThreshold,
        kvCacheUtilThreshold: fc.kvUtilizationThreshold,
        maxConcurrency: fc.maxConcurrency,
      }),
    dispatchOrder: fc.dispatchOrder,
    sloTargetsUs: fc.sloTargetsUs,
    fairness: fc.fairnessPolicy,
    maxQueueDepth: fc.maxGatewayQueueDepth,
    perBandCapacity: fc.perBandCapacity,
    usageLimitThreshold: fc.usageLimitThreshold,
    dispatchTickIntervalUs: fc.dispatchTickIntervalUs > 0 ? fc.dispatchTickIntervalUs : DEFAULT_TICK_US,
    requestTtlUs: fc.requestTtlUs,
    queueShedding: fc.queueShedding,
    inFlightEviction: fc.inFlightEviction,
    saturationLimit: fc.saturationLimit,
    priorities: new SloPriorityMap(),
  };
}

/** Flow-control settings from a partial config (enabled), for tests and hand-built clusters. */
export function flowControlSettings(config: Partial<Omit<FlowControlConfig, 'enabled'>> = {}, detector?: SaturationDetector): FlowControlSettings {
  return resolveFlowControl(FlowControlSchema.parse({ ...config, enabled: true }), detector)!;
}
