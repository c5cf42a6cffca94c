import { isAbsolute, join, readFileSync } from '#host-files';
import type { RandomStream } from '@blis/engine';
import { WorkloadSpecError } from './errors.js';
import { MAX_TOKENS_PER_REQUEST } from './request-limits.js';
import { keyText, looksBinary, quoteExcerpt } from './text-excerpt.js';

/** Draws one positive integer length. */
export type LengthSampler = (rng: RandomStream) => number;

export type DistributionSpec =
  | { type: 'gaussian'; params: { mean: number; std_dev: number; min: number; max: number } }
  | { type: 'exponential'; params: { mean: number; min?: number; max?: number } }
  | { type: 'lognormal'; params: { mu: number; sigma: number; min?: number; max?: number } }
  | { type: 'pareto_lognormal'; params: { alpha: number; xm: number; mu: number; sigma: number; mix_weight: number; min?: number; max?: number } }
  | { type: 'constant'; params: { value: number } }
  | { type: 'empirical'; params: { file?: string; column?: string; values?: number[] } };

const clampInt = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(v)));

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

/**
 * Builds the sampler for a token-length distribution. Every draw is a whole number >= 1 and
 * within [min, max] when bounds are given (gaussian: always).
 */
export function lengthSampler(d: DistributionSpec, baseDir = '.'): LengthSampler {
  switch (d.type) {
    case 'gaussian': {
      const { mean, std_dev, min, max } = d.params;
      return (rng) => clampInt(mean + std_dev * rng.normal(), Math.max(1, min), Math.min(max, MAX_TOKENS_PER_REQUEST));
    }
    case 'exponential': {
      const { mean } = d.params;
      const lo = Math.max(1, d.params.min ?? 1);
      const hi = Math.min(d.params.max ?? MAX_TOKENS_PER_REQUEST, MAX_TOKENS_PER_REQUEST);
      return (rng) => clampInt(rng.exponential(mean), lo, hi);
    }
    case 'lognormal': {
      const { mu, sigma } = d.params;
      const lo = Math.max(1, d.params.min ?? 1);
      const hi = Math.min(d.params.max ?? MAX_TOKENS_PER_REQUEST, MAX_TOKENS_PER_REQUEST);
      return (rng) => clampInt(Math.exp(mu + sigma * rng.normal()), lo, hi);
    }
    case 'pareto_lognormal': {
      const { alpha, xm, mu, sigma, mix_weight } = d.params;
      const lo = Math.max(1, d.params.min ?? 1);
      const hi = Math.min(d.params.max ?? MAX_TOKENS_PER_REQUEST, MAX_TOKENS_PER_REQUEST);
      // With probability mix_weight a heavy-tailed Pareto draw, otherwise a lognormal body.
      return (rng) => {
        const v = rng.next() < mix_weight ? xm / rng.nextOpen() ** (1 / alpha) : Math.exp(mu + sigma * rng.normal());
        return clampInt(v, lo, hi);
      };
    }
    case 'constant': {
      const v = Math.max(1, Math.round(d.params.value));
      return () => v;
    }
    case 'empirical': {
      const values = empiricalValues(d.params, baseDir).map((v) => Math.max(1, Math.round(v)));
      return (rng) => values[rng.nextInt(values.length)];
    }
  }
}
