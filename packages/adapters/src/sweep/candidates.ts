import { PartitionedRng } from '@blis/engine';
import { gridValues, sampleValue, stepPointsProblem } from './parameter-values.js';
import type { LoadedSweepSpec } from './sweep-spec-load.js';
import { SweepSpecError, type SweepIssue } from './sweep-spec-error.js';
import type { ParameterValue, SweepSpec } from './sweep-spec-schema.js';

/** Candidates of one sweep (10^6): each is a whole simulation per seed. */
export const MAX_SWEEP_CANDIDATES = 1_000_000;

/** One point of the search: a value for every parameter, in the spec's parameter order. */
export interface Candidate {
  /** 0-based position in the search; rows and the journal are keyed by it. */
  index: number;
  values: Record<string, ParameterValue>;
}

/**
 * The candidates of a sweep. Grid: the cartesian product, the first parameter varying slowest
 * (nested loops in the spec's order). Random: `samples` independent draws, each parameter in
 * the spec's order, from one stream seeded by `search.seed` (draws may repeat a candidate).
 */
export function expandCandidates(spec: SweepSpec, loaded?: Pick<LoadedSweepSpec, 'where'>): Candidate[] {
  const names = Object.keys(spec.parameters);
  if (spec.search.kind === 'random') {
    if (spec.search.samples > MAX_SWEEP_CANDIDATES)
      throw new SweepSpecError([{ where: loaded?.where(['search', 'samples']) ?? 'search.samples', expected: `at most ${MAX_SWEEP_CANDIDATES} candidates`, found: String(spec.search.samples) }]);
    const issues: SweepIssue[] = [];
    for (const n of names) {
      const problem = stepPointsProblem(spec.parameters[n]);
      if (problem) issues.push({ where: loaded?.where(['parameters', n]) ?? `parameters.${n}`, expected: problem.error, found: problem.found ?? JSON.stringify(spec.parameters[n]) });
    }
    if (issues.length > 0) throw new SweepSpecError(issues);
    const random = new PartitionedRng(spec.search.seed).stream('sweep/random-search');
    const out: Candidate[] = [];
    for (let index = 0; index < spec.search.samples; index++) {
      const values: Record<string, ParameterValue> = {};
      for (const n of names) values[n] = sampleValue(spec.parameters[n], random);
      out.push({ index, values });
    }
    return out;
  }
  const axes: ParameterValue[][] = [];
  const issues: SweepIssue[] = [];
  for (const n of names) {
    // One axis past the candidate limit is refused before it is listed (10^13 points hung).
    const g = gridValues(spec.parameters[n], MAX_SWEEP_CANDIDATES);
    if (Array.isArray(g)) axes.push(g);
    else issues.push({ where: loaded?.where(['parameters', n]) ?? `parameters.${n}`, expected: g.error, found: g.found ?? JSON.stringify(spec.parameters[n]) });
  }
  if (issues.length > 0) throw new SweepSpecError(issues);
  const total = axes.reduce((a, x) => a * x.length, 1);
  // Counted before any is built: four lists of a thousand values are 10^12 simulations.
  if (total > MAX_SWEEP_CANDIDATES)
    throw new SweepSpecError([
      { where: loaded?.where(['parameters']) ?? 'parameters', expected: `at most ${MAX_SWEEP_CANDIDATES} candidates (the grid is the product of the value lists)`, found: `${axes.map((x) => x.length).join(' × ')} = ${total}` },
    ]);
  const out: Candidate[] = [];
  for (let index = 0; index < total; index++) {
    const values: Record<string, ParameterValue> = {};
    // Mixed radix, last parameter fastest.
    let rest = index;
    for (let k = names.length - 1; k >= 0; k--) {
      values[names[k]] = axes[k][rest % axes[k].length];
      rest = Math.floor(rest / axes[k].length);
    }
    // Keep the spec's order in the record (the loop above filled it backwards).
    out.push({ index, values: Object.fromEntries(names.map((n) => [n, values[n]])) });
  }
  return out;
}
