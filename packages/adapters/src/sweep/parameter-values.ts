import type { RandomSource } from '@blis/policies';
import type { ParameterValue, ParameterValues } from './sweep-spec-schema.js';

/** A range's step points, at most: past 2^53 consecutive points are no longer distinct doubles. */
const MAX_RANGE_POINTS = Number.MAX_SAFE_INTEGER;

/** Why a parameter's values cannot be used: what a value list should be, and what was found. */
export interface ParameterValuesProblem {
  error: string;
  found?: string;
}

/**
 * Float steps drift (0.1 + 0.2): round range points to 12 significant digits, so a range of
 * `{min: 0, max: 1, step: 0.1}` gives 0.3, not 0.30000000000000004, and ends at 1.
 */
function clean(x: number): number {
  return Number(x.toPrecision(12));
}

/**
 * How many step points a range has, counted without building them: a step of 0.0001 over
 * [1, 1e9] is 10^13 points and a denormal step an infinity of them, which must be refused
 * before a loop tries to list them. The tolerance lets `max` itself in despite float error in
 * (max - min) / step.
 */
export function rangePointCount(v: { min: number; max: number; step: number }): number {
  return Math.floor((v.max - v.min) / v.step + 1e-9) + 1;
}

function rangePoint(v: { min: number; step: number; integer: boolean }, i: number): number {
  return roundIf(clean(v.min + i * v.step), v.integer);
}

/**
 * The grid points of a list (as is) or a range (`min`, `min + step`, ... up to `max`); a range
 * of more than `maxPoints` points is refused with its count.
 */
export function gridValues(v: ParameterValues, maxPoints = MAX_RANGE_POINTS): ParameterValue[] | ParameterValuesProblem {
  if (Array.isArray(v)) return v;
  if (v.step === undefined) return { error: 'a list of values, or a range with a step (a grid search needs step)' };
  const range = { ...v, step: v.step };
  const count = rangePointCount(range);
  if (!(count <= maxPoints)) return tooManyPoints(count, maxPoints);
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(rangePoint(range, i));
  return out;
}

/** Why a random search cannot draw from a range's step points (too many to tell apart), if it cannot. */
export function stepPointsProblem(v: ParameterValues): ParameterValuesProblem | undefined {
  if (Array.isArray(v) || v.step === undefined) return undefined;
  const count = rangePointCount({ ...v, step: v.step });
  return count <= MAX_RANGE_POINTS ? undefined : tooManyPoints(count, MAX_RANGE_POINTS);
}

/** One value drawn uniformly from a list, a range's step points, or (no step) the range itself. */
export function sampleValue(v: ParameterValues, random: RandomSource): ParameterValue {
  if (Array.isArray(v)) return v[random.nextInt(v.length)];
  if (v.step !== undefined) {
    // The point's index is drawn directly (as from the listed points): a fine-stepped range is not built.
    const range = { ...v, step: v.step };
    return rangePoint(range, random.nextInt(rangePointCount(range)));
  }
  if (v.integer) {
    const lo = Math.ceil(v.min);
    const hi = Math.floor(v.max);
    return lo + random.nextInt(hi - lo + 1);
  }
  return clean(v.min + random.next() * (v.max - v.min));
}

function tooManyPoints(count: number, maxPoints: number): ParameterValuesProblem {
  const limit = maxPoints === MAX_RANGE_POINTS ? '2^53 − 1' : String(maxPoints);
  return {
    error: `a range of at most ${limit} step points (a larger step, or a list of values)`,
    found: `${Number.isFinite(count) ? String(count) : 'infinitely many'} step points`,
  };
}

function roundIf(x: number, integer: boolean): number {
  return integer ? Math.round(x) : x;
}
