import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ArrivalSpec,
  type DistributionSpec,
  WorkloadSpecError,
  createRequestSource,
  loadWorkloadSpec,
  parseWorkloadSpec,
} from '@blis/workload';
import {
  GoRand,
  fnv1a64,
  gammaFn,
  gapSampler,
  lengthSampler,
  weibullShapeForCv,
} from '@blis/workload/internal';
import { describe, expect, it } from 'vitest';
import { cvOf, ecdf, moments, phi, quantile, seCv, seMean } from './stats.js';

// Every tolerance below is K standard errors of the statistic at the sample size used, with the
// standard error estimated as documented in stats.ts. With a fixed seed the tests are
// deterministic; K = 5 means a correct sampler would fail for fewer than 1 in 1.7 million seeds.
const K = 5;
const FIXTURE = join(import.meta.dirname, 'fixtures', 'sharegpt-lengths-500.csv');

// A Go generator per name, as BLIS gives every client its own.
const stream = (name: string, seed = 20240611) => GoRand.fromSeed(BigInt.asIntN(64, BigInt(seed) ^ fnv1a64(name)));

function gaps(a: ArrivalSpec, rate: number, n: number, seed?: number): Float64Array {
  const g = gapSampler(a, rate / 1e6);
  const rng = stream(`gaps/${a.process}`, seed);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = g(rng);
  return out;
}

function lengths(d: DistributionSpec, n: number, baseDir?: string): number[] {
  const s = lengthSampler(d, baseDir);
  const rng = stream(`lengths/${d.type}`);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(s(rng));
  return out;
}

describe('arrival processes', () => {
  it('poisson: mean gap 1/rate and CV 1, through the request stream (arrivals floored to µs)', () => {
    const n = 20_000;
    const spec = parseWorkloadSpec({
      version: '2',
      seed: 11,
      aggregate_rate: 40,
      num_requests: n + 1,
      clients: [{ id: 'p', rate_fraction: 1, input_distribution: { type: 'constant', params: { value: 10 } }, output_distribution: { type: 'constant', params: { value: 5 } } }],
    });
    const src = createRequestSource(spec);
    const arrivals: number[] = [];
    for (let r = src.next(); r !== undefined; r = src.next()) arrivals.push(r.arrivalUs);
    expect(arrivals.length).toBe(n + 1);
    const g = new Float64Array(n);
    for (let i = 0; i < n; i++) g[i] = arrivals[i + 1] - arrivals[i];
    const m = moments(g);
    // Flooring shifts each gap by less than 1 µs: negligible against a 25,000 µs mean.
    expect(Math.abs(m.mean - 25_000)).toBeLessThan(K * seMean(m) + 1);
    expect(Math.abs(cvOf(m) - 1)).toBeLessThan(K * seCv(m));
  });

  it.each([0.5, 2, 3.5])('gamma with cv %s: mean gap 1/rate and the CV asked for', (cv) => {
    const m = moments(gaps({ process: 'gamma', cv }, 10, 200_000));
    expect(Math.abs(m.mean - 100_000)).toBeLessThan(K * seMean(m));
    expect(Math.abs(cvOf(m) - cv)).toBeLessThan(K * seCv(m));
  });

  it('gamma with explicit shape/scale: mean k*theta, CV 1/sqrt(k)', () => {
    const m = moments(gaps({ process: 'gamma', shape: 4, scale: 2500 }, 1, 100_000));
    expect(Math.abs(m.mean - 10_000)).toBeLessThan(K * seMean(m));
    expect(Math.abs(cvOf(m) - 0.5)).toBeLessThan(K * seCv(m));
  });

  it('weibull: shape from CV matches closed forms (k=1 is exponential, k=2 is Rayleigh) to BLIS`s tolerance', () => {
    // BLIS's bisection stops once CV(k) is within 0.001 of the target; near k = 1 and k = 2,
    // dCV/dk is about -1.0 and -0.235, so k lands within about 0.001 and 0.001 / 0.235 of the root.
    expect(Math.abs(weibullShapeForCv(1) - 1)).toBeLessThan(0.0011);
    // Rayleigh: CV = sqrt(4/pi - 1).
    expect(Math.abs(weibullShapeForCv(Math.sqrt(4 / Math.PI - 1)) - 2)).toBeLessThan(0.0011 / 0.235);
    expect(gammaFn(5)).toBeCloseTo(24, 9);
    expect(gammaFn(0.5)).toBeCloseTo(Math.sqrt(Math.PI), 9);
  });

  it.each([0.5, 1.5])('weibull with cv %s: mean gap 1/rate and the CV asked for', (cv) => {
    const m = moments(gaps({ process: 'weibull', cv }, 20, 200_000));
    expect(Math.abs(m.mean - 50_000)).toBeLessThan(K * seMean(m));
    expect(Math.abs(cvOf(m) - cv)).toBeLessThan(K * seCv(m));
  });

  it('constant: every gap exactly 1/rate', () => {
    const g = gaps({ process: 'constant' }, 8, 100);
    expect(new Set(g)).toEqual(new Set([125_000]));
  });

  it('periodic with jitter: gaps within ±jitter of 1/rate, mean 1/rate', () => {
    const g = gaps({ process: 'periodic', jitter: 0.2 }, 10, 50_000);
    const m = moments(g);
    expect(g.reduce((a, b) => Math.min(a, b))).toBeGreaterThanOrEqual(80_000);
    expect(g.reduce((a, b) => Math.max(a, b))).toBeLessThanOrEqual(120_000);
    expect(Math.abs(m.mean - 100_000)).toBeLessThan(K * seMean(m));
  });

  it('bursty (Pareto gaps, alpha 3): support starts at xm = mean*(alpha-1)/alpha, mean 1/rate', () => {
    // alpha 3 has finite variance, so the standard error of the mean is meaningful.
    const g = gaps({ process: 'bursty', alpha: 3 }, 10, 200_000);
    const m = moments(g);
    // Gaps are whole µs, truncated as BLIS's samplers truncate them.
    expect(g.reduce((a, b) => Math.min(a, b))).toBe(Math.trunc((100_000 * 2) / 3));
    expect(Math.abs(m.mean - 100_000)).toBeLessThan(K * seMean(m));
    // P(gap > 2 xm) = 2^-alpha = 1/8: a binomial proportion.
    const p = g.filter((x) => x > (2 * 200_000) / 3).length / g.length;
    expect(Math.abs(p - 1 / 8)).toBeLessThan(K * Math.sqrt((1 / 8) * (7 / 8) / g.length));
  });
});

describe('length distributions', () => {
  it('gaussian (no clamping in practice): mean and standard deviation', () => {
    const xs = lengths({ type: 'gaussian', params: { mean: 1000, std_dev: 100, min: 1, max: 100_000 } }, 50_000);
    const m = moments(xs);
    expect(Math.abs(m.mean - 1000)).toBeLessThan(K * seMean(m));
    // SE of s for a normal sample: sigma / sqrt(2(n-1)); rounding to integers adds 1/12 to the variance.
    expect(Math.abs(Math.sqrt(m.variance) - Math.sqrt(100 ** 2 + 1 / 12))).toBeLessThan((K * 100) / Math.sqrt(2 * (m.n - 1)));
  });

  it('gaussian clamped to [min, max]: nothing outside, and the clamped mass sits on the bounds', () => {
    const n = 50_000;
    const xs = lengths({ type: 'gaussian', params: { mean: 100, std_dev: 50, min: 80, max: 150 } }, n);
    expect(Math.min(...xs)).toBe(80);
    expect(Math.max(...xs)).toBe(150);
    expect(xs.every((x) => Number.isInteger(x))).toBe(true);
    // A draw v lands on 80 when round(v) <= 80, i.e. v < 80.5; on 150 when v >= 149.5.
    const pLo = phi((80.5 - 100) / 50);
    const pHi = 1 - phi((149.5 - 100) / 50);
    const atLo = xs.filter((x) => x === 80).length / n;
    const atHi = xs.filter((x) => x === 150).length / n;
    expect(Math.abs(atLo - pLo)).toBeLessThan(K * Math.sqrt((pLo * (1 - pLo)) / n));
    expect(Math.abs(atHi - pHi)).toBeLessThan(K * Math.sqrt((pHi * (1 - pHi)) / n));
  });

  it('exponential: mean, CV 1, and at least 1', () => {
    const xs = lengths({ type: 'exponential', params: { mean: 256 } }, 50_000);
    const m = moments(xs);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(1);
    // Rounding and the floor at 1 move the mean by well under 1 token.
    expect(Math.abs(m.mean - 256)).toBeLessThan(K * seMean(m) + 1);
  });

  it('lognormal: the median is exp(mu)', () => {
    const n = 40_000;
    const xs = lengths({ type: 'lognormal', params: { mu: 5, sigma: 0.8 } }, n).sort((a, b) => a - b);
    // The sample fraction below exp(mu) is a binomial proportion with p = 1/2 (± rounding mass).
    const { below, atOrBelow } = ecdf(xs, Math.round(Math.exp(5)));
    expect(below).toBeLessThan(0.5 + K * Math.sqrt(0.25 / n));
    expect(atOrBelow).toBeGreaterThan(0.5 - K * Math.sqrt(0.25 / n));
  });

  it('pareto_lognormal: a mix_weight share of draws comes from the Pareto tail (>= xm)', () => {
    const n = 40_000;
    // Lognormal body far below xm, so "x >= xm" identifies the Pareto component.
    const xs = lengths({ type: 'pareto_lognormal', params: { alpha: 1.5, xm: 5000, mu: 3, sigma: 0.3, mix_weight: 0.3 } }, n);
    const p = xs.filter((x) => x >= 5000).length / n;
    expect(Math.abs(p - 0.3)).toBeLessThan(K * Math.sqrt((0.3 * 0.7) / n));
  });

  it('constant: always the value', () => {
    expect(new Set(lengths({ type: 'constant', params: { value: 77 } }, 100))).toEqual(new Set([77]));
  });

  it('empirical from a ShareGPT CSV column reproduces the column quantiles', () => {
    const n = 20_000;
    const rows = readFileSync(FIXTURE, 'utf8').trim().split('\n').slice(1);
    const column = rows.map((r) => Number(r.split(',')[1])).sort((a, b) => a - b);
    const xs = lengths({ type: 'empirical', params: { file: FIXTURE, column: 'num_decode_tokens' } }, n).sort((a, b) => a - b);
    // DKW: P(sup |F_n - F| > eps) <= 2 exp(-2 n eps^2); eps = 0.0175 makes that < 1e-5 at n = 20,000.
    // So each sample quantile q must sit where the CSV's own CDF is within eps of p.
    const eps = 0.0175;
    for (const p of [0.1, 0.25, 0.5, 0.75, 0.9, 0.99]) {
      const q = quantile(xs, p);
      const { below, atOrBelow } = ecdf(column, q);
      expect(below, `p=${p}`).toBeLessThanOrEqual(p + eps);
      expect(atOrBelow, `p=${p}`).toBeGreaterThanOrEqual(p - eps);
    }
    // Every draw is a value of the column.
    const values = new Set(column);
    expect(xs.every((x) => values.has(x))).toBe(true);
  });

  it('empirical: inline values, and a CSV path relative to the spec file', () => {
    expect(new Set(lengths({ type: 'empirical', params: { values: [3, 9] } }, 200))).toEqual(new Set([3, 9]));
    const dir = mkdtempSync(join(tmpdir(), 'blis-empirical-'));
    copyFileSync(FIXTURE, join(dir, 'lengths.csv'));
    writeFileSync(
      join(dir, 'spec.yaml'),
      `version: "2"
aggregate_rate: 5
num_requests: 300
clients:
  - id: sharegpt
    rate_fraction: 1
    input_distribution: {type: empirical, params: {file: lengths.csv, column: num_prefill_tokens}}
    output_distribution: {type: empirical, params: {file: lengths.csv, column: num_decode_tokens}}
`,
    );
    const prefill = new Set(readFileSync(FIXTURE, 'utf8').trim().split('\n').slice(1).map((r) => Number(r.split(',')[0])));
    const src = createRequestSource(loadWorkloadSpec(join(dir, 'spec.yaml')));
    let n = 0;
    for (let r = src.next(); r !== undefined; r = src.next()) {
      expect(prefill.has(r.inputTokens)).toBe(true);
      n++;
    }
    expect(n).toBe(300);
  });

  it('empirical: a bad CSV names file, line, column, expected and found', () => {
    const dir = mkdtempSync(join(tmpdir(), 'blis-empirical-bad-'));
    const csv = join(dir, 'bad.csv');
    writeFileSync(csv, 'num_prefill_tokens,num_decode_tokens\n10,20\n30,abc\n');
    const bad = (params: { file: string; column?: string }) => () => lengthSampler({ type: 'empirical', params });
    expect(bad({ file: csv, column: 'num_decode_tokens' })).toThrow(WorkloadSpecError);
    expect(bad({ file: csv, column: 'num_decode_tokens' })).toThrow(`${csv}:3 num_decode_tokens: expected a positive number of tokens, at most 16777216, found "abc"`);
    expect(bad({ file: csv, column: 'nope' })).toThrow(`${csv}:1 column: expected one of the columns num_prefill_tokens, num_decode_tokens, found "nope"`);
    expect(bad({ file: join(dir, 'missing.csv') })).toThrow(/missing\.csv: expected a readable CSV of lengths \(empirical distribution\), found ENOENT/);
  });
});
