import type { SimulationResult } from '@blis/cluster';
import * as z from 'zod';
import type { CapacityIssue } from './capacity-input-error.js';

/** The latency a target bounds: time to first token, end to end, or inter-token latency. */
export const CAPACITY_METRICS = ['ttft', 'e2e', 'itl'] as const;
/** The statistic of that latency over a run's completed requests. */
export const CAPACITY_STATS = ['mean', 'p50', 'p90', 'p95', 'p99'] as const;
export type CapacityMetric = (typeof CAPACITY_METRICS)[number];
export type CapacityStat = (typeof CAPACITY_STATS)[number];

/**
 * The statistics a result reports, by scope: the cluster block has mean/p90/p95/p99 of TTFT, E2E
 * and ITL; an SLO class (`per_slo_class`) has mean/p50/p90/p99 of TTFT and E2E. A target must
 * name one the result has, or it could never be checked.
 */
const AVAILABLE: Readonly<Record<'overall' | 'class', Readonly<Record<CapacityMetric, readonly CapacityStat[]>>>> = {
  overall: { ttft: ['mean', 'p90', 'p95', 'p99'], e2e: ['mean', 'p90', 'p95', 'p99'], itl: ['mean', 'p90', 'p95', 'p99'] },
  class: { ttft: ['mean', 'p50', 'p90', 'p99'], e2e: ['mean', 'p50', 'p90', 'p99'], itl: [] },
};

/** An upper limit on one latency statistic, over every request or over one SLO class. */
export const CapacityTargetSchema = z
  .object({
    metric: z.enum(CAPACITY_METRICS),
    stat: z.enum(CAPACITY_STATS),
    /** The statistic must be at most this, in ms. */
    limitMs: z.number().positive().refine(Number.isFinite, 'expected a finite number'),
    /** Only the requests of this SLO class (`per_slo_class` key); unset = every request. */
    sloClass: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    const bad = unavailableStat(t);
    if (bad !== undefined) ctx.addIssue({ code: 'custom', path: ['stat'], message: `expected ${bad.expected}`, params: { found: bad.found } });
  });

/** Why the result could never report `t`'s statistic, or undefined when it does. */
export function unavailableStat(t: { metric: CapacityMetric; stat: CapacityStat; sloClass?: string }): { expected: string; found: string } | undefined {
  const scope = t.sloClass === undefined ? 'overall' : 'class';
  const stats = AVAILABLE[scope][t.metric];
  if (stats.includes(t.stat)) return undefined;
  if (stats.length === 0) return { expected: `a metric an SLO class reports (ttft or e2e; per-class results have no ${t.metric})`, found: `${t.metric}_${t.stat}` };
  return { expected: `a statistic the ${scope === 'overall' ? 'cluster' : 'per-class'} result reports for ${t.metric} (${stats.join(', ')})`, found: t.stat };
}

export type CapacityTarget = z.output<typeof CapacityTargetSchema>;

/** `critical:ttft_p99`, the name a target goes by in output and notes. */
export function targetLabel(t: CapacityTarget): string {
  return `${t.sloClass === undefined ? '' : `${t.sloClass}:`}${t.metric}_${t.stat}`;
}

const ENTRY = /^(?:([A-Za-z0-9_.-]+):)?([a-z0-9]+)_([a-z0-9]+)\s*(?:<=|=)\s*(.+)$/;
const LIMIT = /^(\d+(?:\.\d*)?|\.\d+)\s*([a-zA-Zµμ]*)$/;
/** Each unit in ms. A bare number is refused: whether 500 meant ms or µs would be a guess. */
const UNIT_MS: Readonly<Record<string, number>> = { us: 0.001, µs: 0.001, μs: 0.001, ms: 1, s: 1000, m: 60_000 };

/**
 * Parses `ttft_p99=500ms,e2e_p95=30s,critical:ttft_p99=200ms` into targets. Every bad entry is
 * reported (naming the entry), not only the first.
 */
export function parseTargets(text: string, where = 'targets'): { targets: CapacityTarget[]; issues: CapacityIssue[] } {
  const targets: CapacityTarget[] = [];
  const issues: CapacityIssue[] = [];
  const entries = text.split(',').map((s) => s.trim());
  for (const [i, entry] of entries.entries()) {
    const at = `${where} entry ${i + 1}`;
    const m = ENTRY.exec(entry);
    if (m === null) {
      issues.push({ where: at, expected: '[class:]metric_stat=limit with a unit, e.g. "ttft_p99=500ms" or "critical:e2e_p90=30s"', found: JSON.stringify(entry) });
      continue;
    }
    const [, sloClass, metric, stat, limitText] = m;
    const bad = (expected: string, found: string): void => void issues.push({ where: `${at} ${JSON.stringify(entry)}`, expected, found });
    if (!(CAPACITY_METRICS as readonly string[]).includes(metric)) {
      bad(`a metric among ${CAPACITY_METRICS.join(', ')}`, JSON.stringify(metric));
      continue;
    }
    if (!(CAPACITY_STATS as readonly string[]).includes(stat)) {
      bad(`a statistic among ${CAPACITY_STATS.join(', ')}`, JSON.stringify(stat));
      continue;
    }
    const l = LIMIT.exec(limitText.trim());
    if (l === null) {
      bad('a positive limit with its unit (us, ms, s, m), e.g. 500ms', JSON.stringify(limitText));
      continue;
    }
    if (l[2] === '') {
      bad('a unit after the limit (us, ms, s, m)', `${JSON.stringify(limitText)} (no unit)`);
      continue;
    }
    const factor = UNIT_MS[l[2]];
    if (factor === undefined) {
      bad('a unit among us, ms, s, m', JSON.stringify(l[2]));
      continue;
    }
    const limitMs = Number(l[1]) * factor;
    if (!(limitMs > 0)) {
      bad('a positive limit', JSON.stringify(limitText));
      continue;
    }
    const t = { metric: metric as CapacityMetric, stat: stat as CapacityStat, limitMs, ...(sloClass !== undefined ? { sloClass } : {}) };
    const unavailable = unavailableStat(t);
    if (unavailable !== undefined) {
      bad(unavailable.expected, unavailable.found);
      continue;
    }
    targets.push(t);
  }
  return { targets, issues };
}

/** What one target saw in one run. */
export interface TargetCheck {
  target: string;
  limit_ms: number;
  /** The statistic, ms; null when the scope completed no request (the target then fails). */
  value_ms: number | null;
  met: boolean;
}

/**
 * Checks `t` against a run's result. A class with no completed request fails: a run that served
 * none of a class's requests has not met that class's target. Returns undefined when the class
 * is not in the result at all (the caller decides whether that is an input error).
 */
export function checkTarget(t: CapacityTarget, result: SimulationResult): TargetCheck | undefined {
  const key = `${t.metric}_${t.stat}_ms`;
  const scope = t.sloClass === undefined ? result : result.per_slo_class[t.sloClass];
  if (scope === undefined) return undefined;
  const completed = scope.completed_requests;
  const value = completed > 0 ? ((scope as unknown as Record<string, number>)[key] ?? null) : null;
  return { target: targetLabel(t), limit_ms: t.limitMs, value_ms: value, met: value !== null && value <= t.limitMs };
}
