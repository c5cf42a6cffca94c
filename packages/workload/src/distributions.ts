import { isAbsolute, join, readFileSync } from '#host-files';
import type { GoRand } from './go-rand/go-rand.js';
import { WorkloadSpecError } from './errors.js';
import { MAX_TOKENS_PER_REQUEST } from './request-limits.js';
import { keyText, looksBinary, quoteExcerpt } from './text-excerpt.js';

/** Draws one positive integer length. */
export type LengthSampler = (rng: GoRand) => number;

export type DistributionSpec =
  | { type: 'gaussian'; params: { mean: number; std_dev: number; min: number; max: number } }
  | { type: 'exponential'; params: { mean: number; min?: number; max?: number } }
  | { type: 'lognormal'; params: { mu: number; sigma: number; min?: number; max?: number } }
  | { type: 'pareto_lognormal'; params: { alpha: number; xm: number; mu: number; sigma: number; mix_weight: number; min?: number; max?: number } }
  | { type: 'constant'; params: { value: number } }
  | { type: 'empirical'; params: { file?: string; column?: string; values?: number[] } };


/**
 * Loads the values of an empirical distribution: inline, or one column (default: the first) of a
 * CSV with a header row, such as ShareGPT-style `num_prefill_tokens,num_decode_tokens` files.
 */
export function empiricalValues(params: { file?: string; column?: string; values?: number[] }, baseDir = '.'): number[] {
  if (params.values !== undefined) return params.values;
  const file = params.file as string;
  const path = isAbsolute(file) ? file : join(baseDir, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new WorkloadSpecError([{ file: path, expected: 'a readable CSV of lengths (empirical distribution)', found: (e as NodeJS.ErrnoException).code ?? String(e) }]);
  }
  if (looksBinary(text)) throw new WorkloadSpecError([{ file: path, expected: 'a CSV text file of lengths (empirical distribution)', found: 'binary data' }]);
  const lines = text.split(/\r?\n/);
  const header = lines[0].split(',').map((h) => h.trim());
  const col = params.column !== undefined ? header.indexOf(params.column) : 0;
  if (col < 0) throw new WorkloadSpecError([{ file: path, line: 1, field: 'column', expected: `one of the columns ${header.slice(0, 10).map(keyText).join(', ')}${header.length > 10 ? ', ...' : ''}`, found: quoteExcerpt(params.column ?? '') }]);
  const out: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const raw = lines[i].split(',')[col] ?? '';
    const v = raw.trim() === '' ? Number.NaN : Number(raw);
    if (!Number.isFinite(v) || v <= 0 || v > MAX_TOKENS_PER_REQUEST)
      throw new WorkloadSpecError([{ file: path, line: i + 1, field: keyText(header[col]), expected: `a positive number of tokens, at most ${MAX_TOKENS_PER_REQUEST}`, found: quoteExcerpt(raw) }]);
    out.push(v);
  }
  if (out.length === 0) throw new WorkloadSpecError([{ file: path, field: keyText(header[col]), expected: 'at least one value', found: 'no data rows' }]);
  return out;
}

/** Go's `int(math.Round(x))`: halves round away from zero. */
const goRound = (x: number): number => (x < 0 ? -Math.round(-x) : Math.round(x));

/**
 * A drawn length within the clamp BLIS applies after rounding (0 = no bound), at least 1, and
 * at most the per-request limit (BLIS has none; a longer draw would be refused).
 */
function clampDrawn(v: number, min: number, max: number): number {
  let r = v;
  if (min > 0 && r < min) r = min;
  if (max > 0 && r > max) r = max;
  return Math.min(Math.max(r, 1), MAX_TOKENS_PER_REQUEST);
}

/**
 * Builds the sampler for a token-length distribution, drawing as BLIS's samplers do
 * (sim/workload/distribution.go), draw for draw: gaussian `NormFloat64·σ + µ` clamped to
 * [min, max] then rounded (no draw at all when min = max); exponential `ExpFloat64·mean`;
 * lognormal `exp(µ + σ·NormFloat64)`; pareto_lognormal a `Float64` against `mix_weight`, then a
 * Pareto `xm / Float64^(1/α)` or a lognormal draw; constant without a draw. Bounds are whole
 * tokens (Go's `int()` of them). `empirical` (a list or a CSV column, picked with `Intn`) is this
 * project's own: BLIS's empirical form is a probability table. Every length is at least 1.
 */
export function lengthSampler(d: DistributionSpec, baseDir = '.'): LengthSampler {
  switch (d.type) {
    case 'gaussian': {
      const { mean, std_dev } = d.params;
      const min = Math.trunc(d.params.min);
      const max = Math.trunc(d.params.max);
      if (min === max) {
        const v = clampDrawn(min, 0, 0);
        return () => v;
      }
      return (rng) => clampDrawn(goRound(Math.min(max, Math.max(min, rng.normFloat64() * std_dev + mean))), 0, 0);
    }
    case 'exponential': {
      const { mean } = d.params;
      const min = Math.trunc(d.params.min ?? 0);
      const max = Math.trunc(d.params.max ?? 0);
      return (rng) => clampDrawn(goRound(rng.expFloat64() * mean), min, max);
    }
    case 'lognormal': {
      const { mu, sigma } = d.params;
      const min = Math.trunc(d.params.min ?? 0);
      const max = Math.trunc(d.params.max ?? 0);
      return (rng) => {
        const v = Math.exp(mu + sigma * rng.normFloat64());
        return Number.isFinite(v) ? clampDrawn(goRound(v), min, max) : clampDrawn(min, 0, 0);
      };
    }
    case 'pareto_lognormal': {
      const { alpha, xm, mu, sigma, mix_weight } = d.params;
      // BLIS has no bounds here; ours are optional and apply after its draw.
      const min = Math.trunc(d.params.min ?? 0);
      const max = Math.trunc(d.params.max ?? 0);
      return (rng) => {
        let v: number;
        if (rng.float64() < mix_weight) {
          const u = rng.float64();
          v = xm / (u === 0 ? Number.MIN_VALUE : u) ** (1 / alpha);
        } else {
          v = Math.exp(mu + sigma * rng.normFloat64());
        }
        return Number.isFinite(v) ? clampDrawn(goRound(v), min, max) : 1;
      };
    }
    case 'constant': {
      const v = clampDrawn(Math.trunc(d.params.value), 0, 0);
      return () => v;
    }
    case 'empirical': {
      const values = empiricalValues(d.params, baseDir).map((v) => clampDrawn(Math.round(v), 0, 0));
      return (rng) => values[rng.intn(values.length)];
    }
  }
}
