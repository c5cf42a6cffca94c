import type { InstanceSnapshot } from '../views.js';

/**
 * How full the pool is, as the flow-control gateway sees it: 0 is idle, 1 or more is saturated
 * (the gateway holds requests). llm-d's GIE gates dispatch on such a detector; a custom one
 * compiles against `@blis/policies` alone and is given to `simulate` in place of a built-in.
 */
export interface SaturationDetector {
  readonly name: string;
  /**
   * The pool's saturation over the routable instances as the router sees them (their snapshots,
   * with the router's staleness). It must be finite; an empty pool is usually saturated.
   */
  saturation(instances: readonly InstanceSnapshot[]): number;
}

/** The built-in detectors, by their BLIS names. */
export const SATURATION_DETECTOR_NAMES = ['utilization', 'concurrency', 'never'] as const;
export type SaturationDetectorName = (typeof SATURATION_DETECTOR_NAMES)[number];

/** Thresholds of the built-in detectors (BLIS's flag defaults: 5, 0.8, 100). */
export interface SaturationDetectorParams {
  /** Wait-queue depth at which one instance counts as full (utilization). */
  readonly queueDepthThreshold: number;
  /** KV-cache utilisation at which one instance counts as full (utilization). */
  readonly kvCacheUtilThreshold: number;
  /** Requests in flight per instance at which the pool counts as full (concurrency). */
  readonly maxConcurrency: number;
}

export const SATURATION_DETECTOR_DEFAULTS: SaturationDetectorParams = Object.freeze({
  queueDepthThreshold: 5,
  kvCacheUtilThreshold: 0.8,
  maxConcurrency: 100,
});

/** Never saturated: the gateway queue becomes a pass-through (GIE's always-admit). */
export function createNeverSaturated(): SaturationDetector {
  return { name: 'never', saturation: () => 0 };
}

/**
 * GIE's utilization detector: the mean over instances of the larger of queue depth over its
 * threshold and KV utilisation over its threshold. No instance at all reads as saturated, so
 * requests wait for one to appear rather than being routed nowhere.
 */
export function createUtilizationDetector(queueDepthThreshold: number, kvCacheUtilThreshold: number): SaturationDetector {
  positiveFinite('queueDepthThreshold', queueDepthThreshold);
  positiveFinite('kvCacheUtilThreshold', kvCacheUtilThreshold);
  return {
    name: 'utilization',
    saturation(instances) {
      if (instances.length === 0) return 1;
      let sum = 0;
      for (const s of instances) sum += Math.max(s.queueDepth / queueDepthThreshold, s.kvUtilization / kvCacheUtilThreshold);
      return sum / instances.length;
    },
  };
}

/** GIE's concurrency detector: requests in flight over (instances x max concurrency). */
export function createConcurrencyDetector(maxConcurrency: number): SaturationDetector {
  if (!Number.isInteger(maxConcurrency) || maxConcurrency <= 0) throw new RangeError(`maxConcurrency must be a positive integer, found ${maxConcurrency}`);
  return {
    name: 'concurrency',
    saturation(instances) {
      if (instances.length === 0) return 1;
      let inFlight = 0;
      for (const s of instances) inFlight += s.inFlightRequests;
      return inFlight / (instances.length * maxConcurrency);
    },
  };
}

/** A built-in detector by name, with the thresholds it reads. */
export function createSaturationDetector(name: SaturationDetectorName, params: Partial<SaturationDetectorParams> = {}): SaturationDetector {
  const p = { ...SATURATION_DETECTOR_DEFAULTS, ...params };
  switch (name) {
    case 'never':
      return createNeverSaturated();
    case 'utilization':
      return createUtilizationDetector(p.queueDepthThreshold, p.kvCacheUtilThreshold);
    case 'concurrency':
      return createConcurrencyDetector(p.maxConcurrency);
  }
}

function positiveFinite(what: string, v: number): void {
  if (!(v > 0) || !Number.isFinite(v)) throw new RangeError(`${what} must be a finite number > 0, found ${v}`);
}
