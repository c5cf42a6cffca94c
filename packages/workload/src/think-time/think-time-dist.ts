import { parseDecimal, quoteExcerpt } from '@blis/policies/internal';

/**
 * A closed-loop user's pause between an answer and its next request, in BLIS's
 * `--think-time-dist` form: `constant:value=500ms`, or `lognormal:mu=2.0,sigma=0.6[,min=3s][,max=30s]`
 * where `mu` and `sigma` describe ln(X) with X in seconds. Times take `s`, `ms` or `us`; a bare
 * number is milliseconds, as `--think-time-ms`.
 */
export type ThinkTimeDist =
  | { readonly type: 'constant'; readonly valueUs: number }
  /** `minUs`/`maxUs` of 0: no bound (BLIS's convention). */
  | { readonly type: 'lognormal'; readonly mu: number; readonly sigma: number; readonly minUs: number; readonly maxUs: number };

/** What is wrong with a `--think-time-dist` text: the part, what it should be, what it is. */
export class ThinkTimeDistError extends Error {
  readonly part: string;
  readonly expected: string;
  readonly found: string;
  constructor(part: string, expected: string, found: string) {
    super(`${part}: expected ${expected}, found ${found}`);
    this.name = 'ThinkTimeDistError';
    this.part = part;
    this.expected = expected;
    this.found = found;
  }
}

const TYPES = ['constant', 'lognormal'] as const;
const KEYS: Readonly<Record<(typeof TYPES)[number], readonly string[]>> = { constant: ['value'], lognormal: ['mu', 'sigma', 'min', 'max'] };

/** Reads a `--think-time-dist` text; throws {@link ThinkTimeDistError} naming the part at fault. */
export function parseThinkTimeDist(text: string): ThinkTimeDist {
  const colon = text.indexOf(':');
  if (colon < 0) throw new ThinkTimeDistError('distribution', 'type:key=value,... ("constant:value=500ms", "lognormal:mu=2,sigma=0.6")', quoteExcerpt(text));
  const type = text.slice(0, colon);
  if (type !== 'constant' && type !== 'lognormal') throw new ThinkTimeDistError('type', 'one of "constant", "lognormal"', quoteExcerpt(type));
  const params = readParams(text.slice(colon + 1), KEYS[type]);
  if (type === 'constant') return { type, valueUs: timeUs('value', required(params, 'value')) };
  const mu = finite('mu', required(params, 'mu'));
  const sigma = finite('sigma', required(params, 'sigma'));
  if (!(sigma > 0)) throw new ThinkTimeDistError('sigma', 'a number > 0', quoteExcerpt(params.get('sigma')!));
  const minUs = params.has('min') ? timeUs('min', params.get('min')!) : 0;
  const maxUs = params.has('max') ? timeUs('max', params.get('max')!) : 0;
  if (minUs > 0 && maxUs > 0 && minUs > maxUs) throw new ThinkTimeDistError('min', `at most max (${maxUs} µs)`, `${minUs} µs`);
  return { type, mu, sigma, minUs, maxUs };
}

/**
 * One draw in whole µs, as BLIS draws it: a constant as given; a lognormal as
 * round(exp(mu + ln(1e6) + sigma·z)) clamped to its bounds, and at least 1 µs.
 */
export function sampleThinkTimeUs(dist: ThinkTimeDist, normal: () => number): number {
  if (dist.type === 'constant') return dist.valueUs;
  const v = Math.exp(dist.mu + Math.log(1e6) + dist.sigma * normal());
  if (!Number.isFinite(v)) return dist.minUs > 0 ? dist.minUs : 1;
  let us = Math.round(v);
  if (dist.minUs > 0 && us < dist.minUs) us = dist.minUs;
  if (dist.maxUs > 0 && us > dist.maxUs) us = dist.maxUs;
  return Math.max(us, 1);
}

function readParams(text: string, known: readonly string[]): Map<string, string> {
  const params = new Map<string, string>();
  for (const raw of text.split(',')) {
    const kv = raw.trim();
    if (kv === '') continue;
    const eq = kv.indexOf('=');
    if (eq < 0) throw new ThinkTimeDistError('parameter', 'key=value', quoteExcerpt(kv));
    const key = kv.slice(0, eq);
    if (!known.includes(key)) throw new ThinkTimeDistError('parameter', `one of ${known.map((k) => `"${k}"`).join(', ')}`, quoteExcerpt(key));
    if (params.has(key)) throw new ThinkTimeDistError(key, 'each parameter once', `"${key}" twice`);
    params.set(key, kv.slice(eq + 1));
  }
  return params;
}

function required(params: Map<string, string>, key: string): string {
  const v = params.get(key);
  if (v === undefined) throw new ThinkTimeDistError(key, `a value ("${key}=...")`, 'nothing (the parameter is missing)');
  return v;
}

function finite(key: string, text: string): number {
  const n = parseDecimal(text);
  if (n === undefined) throw new ThinkTimeDistError(key, 'a decimal number', quoteExcerpt(text));
  return n;
}

const UNITS: readonly [string, number][] = [
  ['us', 1],
  ['ms', 1_000],
  ['s', 1_000_000],
];

/** A time in whole µs (truncated, as BLIS): `500ms`, `3s`, `250us`, or bare milliseconds. */
function timeUs(key: string, text: string): number {
  const unit = UNITS.find(([suffix]) => text.endsWith(suffix));
  const n = parseDecimal(unit === undefined ? text : text.slice(0, -unit[0].length));
  const us = n === undefined ? Number.NaN : Math.trunc(n * (unit?.[1] ?? 1_000));
  if (!(us >= 0) || !Number.isSafeInteger(us)) throw new ThinkTimeDistError(key, 'a time >= 0 with a unit s, ms or us (a bare number is ms)', quoteExcerpt(text));
  return us;
}
