import type { PostHocSaturationDetector } from '@blis/policies';
import { BacklogDriftDetector, DEFAULT_BACKLOG_DRIFT_WINDOW_US } from './backlog-drift-detector.js';
import { CompositeDetector } from './composite-detector.js';
import { DEFAULT_THRESHOLD_MS, ThresholdDetector } from './threshold-detector.js';

/**
 * The built-in detectors in BLIS's fixed order: the verdict trace interleaves them so whatever
 * order they were named in, and `all` is exactly these.
 */
export const SATURATION_DETECTOR_NAMES = ['composite', 'threshold', 'backlog-drift'] as const;
export type SaturationDetectorName = (typeof SATURATION_DETECTOR_NAMES)[number];

/**
 * The tuning of the built-in detectors (BLIS's `--saturation-config` file). `composite` has none.
 * `backlog-drift` reads only its window; BLIS validates its other knobs (kept for its old batch
 * classifier) and so do we, but they change nothing.
 */
export interface SaturationDetectorSettings {
  /** `threshold`'s mean-E2E threshold in ms (default 5000). */
  thresholdMs?: number;
  /** `backlog-drift`'s bucket width in µs (default 60 s). */
  backlogDriftWindowUs?: number;
}

/** Whether `name` is a built-in detector. */
export function isSaturationDetectorName(name: string): name is SaturationDetectorName {
  return (SATURATION_DETECTOR_NAMES as readonly string[]).includes(name);
}

/** `names` without repeats, in the roster's order. */
export function canonicalDetectorOrder(names: readonly SaturationDetectorName[]): SaturationDetectorName[] {
  return SATURATION_DETECTOR_NAMES.filter((n) => names.includes(n));
}

/** A fresh built-in detector. */
export function createSaturationDetector(name: SaturationDetectorName, settings: SaturationDetectorSettings = {}): PostHocSaturationDetector {
  switch (name) {
    case 'composite':
      return new CompositeDetector();
    case 'threshold':
      return new ThresholdDetector(settings.thresholdMs ?? DEFAULT_THRESHOLD_MS);
    case 'backlog-drift':
      return new BacklogDriftDetector(settings.backlogDriftWindowUs ?? DEFAULT_BACKLOG_DRIFT_WINDOW_US);
  }
}
