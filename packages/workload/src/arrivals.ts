import type { GoRand } from './go-rand/go-rand.js';
import { goLog } from './go-rand/go-log.js';

export type ArrivalSpec =
  | { process: 'poisson' }
  | { process: 'gamma'; cv?: number; shape?: number; scale?: number }
  | { process: 'weibull'; cv?: number; shape?: number; scale?: number }
  | { process: 'constant' }
  | { process: 'bursty'; alpha?: number }
  | { process: 'periodic'; jitter?: number };

/** Draws the next inter-arrival gap: a whole number of µs, at least 1 (BLIS's `SampleIAT`). */
export type GapSampler = (rng: GoRand) => number;

/** BLIS floors a rate at 1e-15 requests/µs (NewArrivalSampler), so that every gap stays finite. */
const MIN_RATE_PER_US = 1e-15;

/** Go's `int64(x)` of a gap, floored at 1 µs as BLIS's samplers floor it. */
const wholeGap = (x: number): number => Math.max(1, Math.trunc(x));

/**
 * Gamma(shape, scale) as BLIS draws it (arrival.go gammaRand): Marsaglia-Tsang from NormFloat64
 * and Float64, with the Ahrens-Dieter boost below shape 1 drawing its uniform first.
 */
export function gammaDraw(rng: GoRand, shape: number, scale = 1): number {
  if (shape < 1) {
    const u = rng.float64();
    return gammaDraw(rng, shape + 1, scale) * u ** (1 / shape);
  }
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = rng.normFloat64();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng.float64();
    if (u < 1 - 0.0331 * (x * x) * (x * x)) return d * v * scale;
    if (goLog(u) < 0.5 * x * x + d * (1 - v + goLog(v))) return d * v * scale;
  }
}

/** Lanczos approximation of Γ(x) for x > 0. */
export function gammaFn(x: number): number {
  const g = 7;
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gammaFn(1 - x));
  x -= 1;
  let a = c[0];
  const t = x + g + 0.5;
  for (let i = 1; i < g + 2; i++) a += c[i] / (x + i);
  return Math.sqrt(2 * Math.PI) * t ** (x + 0.5) * Math.exp(-t) * a;
}

/**
 * Weibull shape k whose coefficient of variation is `cv`, as BLIS finds it (weibullShapeFromCV):
 * bisection on [0.1, 100], stopping as soon as CV(k) is within 0.001 of the target.
 */
export function weibullShapeForCv(cv: number): number {
  const cvOf = (k: number) => Math.sqrt(gammaFn(1 + 2 / k) / gammaFn(1 + 1 / k) ** 2 - 1);
  let lo = 0.1;
  let hi = 100;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    const at = cvOf(mid);
    if (Math.abs(at - cv) < 0.001) return mid;
    if (at > cv) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The gap sampler for an arrival process at `ratePerUs` requests per µs, BLIS's
 * NewArrivalSampler: constant spacing `int64(1/rate)`; poisson `int64(ExpFloat64/rate)`; gamma
 * and weibull from a CV (default 1), or from an explicit shape and scale (µs) when both are given
 * (one alone fills in the other from the rate: BLIS would ignore it). A gamma CV above 10 (shape
 * under 0.01) falls back to Poisson, as in BLIS. Two processes are this project's own, drawn from
 * the same generator: bursty (Pareto gaps, shape `alpha`, default 1.5) and periodic (constant
 * spacing with ±`jitter` fraction of uniform noise). Every gap is a whole number of µs, at least 1.
 */
export function gapSampler(a: ArrivalSpec, ratePerUs: number): GapSampler {
  const rate = Math.max(ratePerUs, MIN_RATE_PER_US);
  const mean = 1 / rate;
  const poisson: GapSampler = (rng) => wholeGap(rng.expFloat64() / rate);
  switch (a.process) {
    case 'poisson':
      return poisson;
    case 'gamma': {
      if (a.shape !== undefined && a.scale !== undefined) {
        const { shape, scale } = a;
        return (rng) => wholeGap(gammaDraw(rng, shape, scale));
      }
      const cv = a.cv ?? 1;
      const shape = a.shape ?? 1 / (cv * cv);
      const scale = a.scale ?? (a.shape !== undefined ? mean / shape : mean * cv * cv);
      if (shape < 0.01) return poisson;
      return (rng) => wholeGap(gammaDraw(rng, shape, scale));
    }
    case 'weibull': {
      const k = a.shape ?? weibullShapeForCv(a.cv ?? 1);
      const lambda = a.scale ?? mean / gammaFn(1 + 1 / k);
      return (rng) => {
        const u = rng.float64();
        return wholeGap(lambda * (-goLog(u === 0 ? Number.MIN_VALUE : u)) ** (1 / k));
      };
    }
    case 'constant': {
      const gap = wholeGap(1 / rate);
      return () => gap;
    }
    case 'bursty': {
      const alpha = a.alpha ?? 1.5;
      const xm = (mean * (alpha - 1)) / alpha;
      return (rng) => {
        const u = rng.float64();
        return wholeGap(xm / (u === 0 ? Number.MIN_VALUE : u) ** (1 / alpha));
      };
    }
    case 'periodic': {
      const j = a.jitter ?? 0;
      return (rng) => wholeGap(mean * (1 + j * (2 * rng.float64() - 1)));
    }
  }
}
