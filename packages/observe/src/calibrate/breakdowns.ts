import type { BreakdownPairs, CalibrationPairs } from './pairing.js';
import { breakdownMape } from './statistics.js';

/** One group's comparison (an SLO class or a model): pairs, MAPE and means (µs) of TTFT and E2E. */
export interface BreakdownSummary {
  count: number;
  ttft_mape: number;
  e2e_mape: number;
  ttft_real_mean: number;
  ttft_sim_mean: number;
  e2e_real_mean: number;
  e2e_sim_mean: number;
}

/**
 * The per-SLO-class and per-model comparisons BLIS only logs to stderr, kept in the report (a
 * field BLIS does not write), keyed in sorted order; a side with no labelled request is absent.
 */
export interface CalibrationBreakdowns {
  slo_class?: Record<string, BreakdownSummary>;
  model?: Record<string, BreakdownSummary>;
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

function summary(b: BreakdownPairs): BreakdownSummary {
  return {
    count: b.ttft.real.length,
    ttft_mape: breakdownMape(b.ttft.real, b.ttft.sim),
    e2e_mape: breakdownMape(b.e2e.real, b.e2e.sim),
    ttft_real_mean: mean(b.ttft.real),
    ttft_sim_mean: mean(b.ttft.sim),
    e2e_real_mean: mean(b.e2e.real),
    e2e_sim_mean: mean(b.e2e.sim),
  };
}

function byKey(map: ReadonlyMap<string, BreakdownPairs>): Record<string, BreakdownSummary> | undefined {
  if (map.size === 0) return undefined;
  const out: Record<string, BreakdownSummary> = {};
  for (const key of [...map.keys()].sort()) out[key] = summary(map.get(key)!);
  return out;
}

/** The breakdowns of a set of pairs, or undefined when no simulated request names a class or model. */
export function calibrationBreakdowns(pairs: CalibrationPairs): CalibrationBreakdowns | undefined {
  const slo = byKey(pairs.bySlo);
  const model = byKey(pairs.byModel);
  if (slo === undefined && model === undefined) return undefined;
  return { ...(slo !== undefined ? { slo_class: slo } : {}), ...(model !== undefined ? { model } : {}) };
}
