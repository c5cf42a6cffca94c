import type { SearchStatus } from './bracket-search.js';
import type { TargetCheck } from './capacity-target.js';

/** One seed's run at one probe. */
export interface CapacityRun {
  seed: number;
  /** Every target met and enough requests completed. */
  passed: boolean;
  injected_requests: number;
  completed_requests: number;
  /** completed / injected (0 when nothing was injected). */
  completion: number;
  completion_met: boolean;
  checks: TargetCheck[];
}

/** One value the search tried: a rate (in the report's unit) or an instance count. */
export interface CapacityProbe {
  /** 1-based, in the order the search ran them. */
  index: number;
  value: number;
  /** Every seed passed: the rule that makes a probe pass. */
  passed: boolean;
  seeds_passed: number;
  runs: CapacityRun[];
}

/** A probe whose seeds disagreed. */
export interface SeedDisagreement {
  value: number;
  seeds_passed: number;
  seeds: number;
}

/** How much the answer depends on the seed. */
export interface CapacityConfidence {
  seeds_agree: boolean;
  disagreements: SeedDisagreement[];
  note: string;
}

/** What `findCapacity` returns and `blis capacity` prints. */
export interface CapacityReport {
  search: 'rate' | 'instances';
  status: SearchStatus;
  /** The largest passing rate or the fewest passing instances; null when nothing passed. */
  answer: number | null;
  /** `req/s`, `x` (a multiple of the workload's recorded rate) or `instances`. */
  unit: string;
  message: string;
  /** The passing and failing values next to the threshold (null at an open end). */
  bracket: { passing: number | null; failing: number | null };
  /** Rate search only: the relative width the bisection stopped at; null for instances (exact). */
  tolerance: number | null;
  /** What the search varies in the configuration. */
  varies: string;
  /** The dimension held fixed: the instance count (rate search) or the rate (instances search). */
  fixed: { num_instances: number } | { rate: number; unit: string };
  bounds: { min: number; max: number };
  targets: { target: string; metric: string; stat: string; slo_class: string | null; limit_ms: number }[];
  min_completion: number;
  seeds: number[];
  probes: CapacityProbe[];
  confidence: CapacityConfidence;
}

/** A number for prose: six significant digits, no trailing zeros, the same text every time. */
export function formatValue(x: number): string {
  return String(Number(x.toPrecision(6)));
}

/**
 * The confidence note: which probes' seeds disagreed, and what that means for the answer under
 * the all-seeds rule.
 */
export function confidenceOf(probes: readonly CapacityProbe[], seeds: number, unit: string): CapacityConfidence {
  const mixed = probes.filter((p) => p.seeds_passed > 0 && p.seeds_passed < seeds);
  const disagreements = mixed.map((p) => ({ value: p.value, seeds_passed: p.seeds_passed, seeds }));
  const at = (v: number) => (unit === 'instances' ? `with ${formatValue(v)} instance${v === 1 ? '' : 's'}` : `at ${formatValue(v)} ${unit}`);
  let note: string;
  if (seeds === 1) note = 'one seed: the answer holds for that seed\'s arrivals and lengths only; give several seeds to see how much it varies';
  else if (mixed.length === 0) note = `all ${seeds} seeds agreed at every probe`;
  else
    note =
      `seeds disagreed at ${mixed.length} probe${mixed.length === 1 ? '' : 's'}: ` +
      mixed.map((p) => `${at(p.value)} ${p.seeds_passed} of ${seeds} seeds met the targets`).join('; ') +
      '. A probe passes only when every seed does, so the answer is one every seed met; some seeds meet the targets beyond it';
  return { seeds_agree: mixed.length === 0, disagreements, note };
}
