import type { PostHocSaturationDetector, SaturationLevel } from '@blis/policies';
import { type CompletedRequestTimes, type VerdictListener, createSaturationDetector, replaySaturation, saturationEvents } from '@blis/trace';
import { canonicalDetectorOrder } from '@blis/trace/internal';
import type { ClusterSimulator } from '../cluster-simulator.js';
import { type SaturationAnalysisSettings, finalWindowUsOf } from './saturation-analysis-schema.js';

/** BLIS's id of a request: generated and trace-row requests are `request_<n>`; ours carry the bare number. */
export function blisRequestId(id: string): string {
  return /^\d+$/.test(id) ? `request_${id}` : id;
}

/** The completed requests of a finished run, as the replay reads them (ids need `recordRequestIds`). */
export function completedRequestTimes(sim: ClusterSimulator): CompletedRequestTimes[] {
  const log = sim.log;
  const out: CompletedRequestTimes[] = new Array(log.e2eUs.length);
  for (let i = 0; i < log.e2eUs.length; i++) out[i] = { requestId: blisRequestId(log.ids[i] ?? ''), arrivalUs: log.arrivalUs.get(i), e2eUs: log.e2eUs.get(i) };
  return out;
}

/**
 * Runs the post-hoc saturation analysis over a finished run: the selected built-in detectors
 * (BLIS's order, whatever order they were named in), then `custom` ones in their order, replay
 * its completed requests and each gets its final label. `onVerdict` receives every verdict, the
 * verdict trace.
 */
export function runSaturationAnalysis(
  sim: ClusterSimulator,
  settings: SaturationAnalysisSettings,
  onVerdict?: VerdictListener,
  custom: readonly (() => PostHocSaturationDetector)[] = [],
): Record<string, SaturationLevel> {
  return analyseSaturation(completedRequestTimes(sim), settings, onVerdict, custom);
}

/**
 * The same analysis over completed requests from anywhere: a simulated run's, or those a real
 * server answered (`blis observe`, whose record gives each request's arrival and its E2E from
 * send to last chunk). Requests without a positive E2E are not counted as completed.
 */
export function analyseSaturation(
  requests: Iterable<CompletedRequestTimes>,
  settings: SaturationAnalysisSettings,
  onVerdict?: VerdictListener,
  custom: readonly (() => PostHocSaturationDetector)[] = [],
): Record<string, SaturationLevel> {
  const tuning = {
    thresholdMs: settings.threshold?.thresholdMs,
    backlogDriftWindowUs: settings.backlogDrift?.windowSizeSec === undefined ? undefined : settings.backlogDrift.windowSizeSec * 1_000_000,
  };
  const detectors = [...canonicalDetectorOrder(settings.detectors).map((n) => createSaturationDetector(n, tuning)), ...custom.map((make) => make())];
  return replaySaturation(saturationEvents(requests), detectors, { finalWindowUs: finalWindowUsOf(settings), onVerdict });
}
