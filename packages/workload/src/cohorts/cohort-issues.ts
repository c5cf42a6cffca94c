import type { CohortSpec } from './cohort-schema.js';

type Issue = { path: (string | number)[]; expected: string; found: string };

/**
 * What BLIS's Validate refuses in cohorts beyond their fields' own ranges, with the paths to
 * name: in absolute rate mode (`aggregate_rate: 0`) a cohort needs a spike with a positive
 * `trace_rate` and may have no diurnal or drain pattern (BLIS: "not yet supported"); with
 * per-window generation (`perWindowOwner` names what put the spec on it) a cohort without any
 * pattern would send nothing, which BLIS does silently and we refuse; min <= max in its length
 * distributions.
 */
export function cohortIssues(aggregateRate: number, cohorts: readonly CohortSpec[], perWindowOwner: string | undefined): Issue[] {
  const out: Issue[] = [];
  cohorts.forEach((c, i) => {
    const at = ['cohorts', i];
    for (const which of ['input_distribution', 'output_distribution'] as const) {
      const p = c[which].params as { min?: number; max?: number };
      if (p.min !== undefined && p.max !== undefined && p.min > p.max) out.push({ path: [...at, which, 'params', 'min'], expected: `min <= max (${p.max})`, found: String(p.min) });
    }
    if (aggregateRate === 0) {
      const mode = '(aggregate_rate is 0: absolute rate mode, where BLIS supports only a spike with a trace_rate)';
      if (c.diurnal !== undefined) out.push({ path: [...at, 'diurnal'], expected: `no diurnal pattern ${mode}`, found: 'a diurnal pattern' });
      if (c.drain !== undefined) out.push({ path: [...at, 'drain'], expected: `no drain pattern ${mode}`, found: 'a drain pattern' });
      if (c.spike === undefined) out.push({ path: at, expected: `a spike with a trace_rate ${mode}`, found: 'no spike' });
      else if (!(c.spike.trace_rate !== undefined && c.spike.trace_rate > 0))
        out.push({ path: [...at, 'spike', 'trace_rate'], expected: `a trace_rate > 0 in requests/s ${mode}`, found: c.spike.trace_rate === undefined ? 'nothing (the field is missing)' : String(c.spike.trace_rate) });
    } else if (perWindowOwner !== undefined && c.diurnal === undefined && c.spike === undefined && c.drain === undefined) {
      out.push({ path: at, expected: `a diurnal, spike or drain pattern (${perWindowOwner} has per-window overrides, and then a member without windows sends nothing)`, found: 'none' });
    }
  });
  return out;
}
