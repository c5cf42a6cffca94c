import type { RandomSource } from '@blis/policies';
import type { ParameterValue, ParameterValues } from './sweep-spec-schema.js';

/**
 * Float steps drift (0.1 + 0.2): round range points to 12 significant digits, so a range of
 * `{min: 0, max: 1, step: 0.1}` gives 0.3, not 0.30000000000000004, and ends at 1.
 */
function clean(x: number): number {
  return Number(x.toPrecision(12));
}

/** The grid points of a list (as is) or a range (`min`, `min + step`, ... up to `max`). */
export function gridValues(v: ParameterValues): ParameterValue[] | { error: string } {
  if (Array.isArray(v)) return v;
  if (v.step === undefined) return { error: 'a list of values, or a range with a step (a grid search needs step)' };
  const out: number[] = [];
  // The tolerance lets `max` itself in despite float error in (max - min) / step.
  const n = Math.floor((v.max - v.min) / v.step + 1e-9);
  for (let i = 0; i <= n; i++) out.push(roundIf(clean(v.min + i * v.step), v.integer));
  return out;
}

/** One value drawn uniformly from a list, a range's step points, or (no step) the range itself. */
export function sampleValue(v: ParameterValues, random: RandomSource): ParameterValue {
  if (Array.isArray(v)) return v[random.nextInt(v.length)];
  if (v.step !== undefined) {
    const points = gridValues(v) as number[];
    return points[random.nextInt(points.length)];
  }
  if (v.integer) {
    const lo = Math.ceil(v.min);
    const hi = Math.floor(v.max);
    return lo + random.nextInt(hi - lo + 1);
  }
  return clean(v.min + random.next() * (v.max - v.min));
}

function roundIf(x: number, integer: boolean): number {
  return integer ? Math.round(x) : x;
}
