import { autoscalingSection } from './sections/autoscaling.js';
import { type ReportCalibration, calibrationSection } from './sections/calibration.js';
import { calibrationBreakdownSection } from './sections/calibration-breakdown.js';
import { comparisonSection } from './sections/comparison.js';
import { dropsSection } from './sections/drops.js';
import { kvTiersSection } from './sections/kv-tiers.js';
import { latencySection } from './sections/latency.js';
import { loraSection } from './sections/lora.js';
import { pdSection } from './sections/pd.js';
import { routingSection } from './sections/routing.js';
import { timeseriesSection } from './sections/timeseries.js';
import type { ReportRun, ReportSection } from './types.js';

/**
 * The report's sections for these runs (and `blis calibrate` reports), in reading order; a
 * section whose data no run has is left out. Pure and browser-safe: the specs carry their data
 * inline.
 */
export function reportSections(runs: readonly ReportRun[], calibrations: readonly ReportCalibration[] = []): ReportSection[] {
  const builders = [comparisonSection, latencySection, timeseriesSection, routingSection, dropsSection, pdSection, kvTiersSection, loraSection, autoscalingSection];
  const sections = builders.map((b) => b(runs)).filter((s): s is ReportSection => s !== undefined);
  const calibration = [calibrationSection(calibrations), calibrationBreakdownSection(calibrations)].filter((s): s is ReportSection => s !== undefined);
  return [...calibration, ...sections];
}
