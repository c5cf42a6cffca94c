import type { RandomStream } from '@blis/engine';

export type ArrivalSpec =
  | { process: 'poisson' }
  | { process: 'gamma'; cv?: number; shape?: number; scale?: number }
  | { process: 'weibull'; cv?: number; shape?: number; scale?: number }
  | { process: 'constant' }
  | { process: 'bursty'; alpha?: number }
  | { process: 'periodic'; jitter?: number };

/** Draws the next inter-arrival gap in µs (a non-negative real; callers floor arrival ticks). */
export type GapSampler = (rng: RandomStream) => number;

/** Gamma(shape k, scale 1) by Marsaglia-Tsang (with the k < 1 boost). */
export function gammaDraw(rng: RandomStream, k: number): number {
  if (k < 1) return gammaDraw(rng, k + 1) * rng.nextOpen() ** (1 / k);
  const d = k - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = rng.normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng.nextOpen();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
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

/** Weibull shape k whose coefficient of variation is `cv` (bisection on CV(k), decreasing in k). */
export function weibullShapeForCv(cv: number): number {
  const cvOf = (k: number) => Math.sqrt(gammaFn(1 + 2 / k) / gammaFn(1 + 1 / k) ** 2 - 1);
  let lo = 0.05;
  let hi = 50;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (cvOf(mid) > cv) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The gap sampler for an arrival process at `ratePerSec`. Every process has mean gap 1/rate:
 * poisson (exponential gaps, CV 1); gamma and weibull with a target CV (or explicit
 * shape/scale); constant spacing; bursty (Pareto gaps with shape `alpha`, default 1.5, heavy
 * tailed); periodic (constant spacing with ±`jitter` fraction of uniform noise).
 */
export function gapSampler(a: ArrivalSpec, ratePerSec: number): GapSampler {
  const mean = 1e6 / ratePerSec;
  switch (a.process) {
    case 'poisson':
      return (rng) => rng.exponential(mean);
    case 'gamma': {
      const k = a.shape ?? 1 / (a.cv ?? 1) ** 2;
      const theta = a.scale ?? mean / k;
      return (rng) => gammaDraw(rng, k) * theta;
    }
    case 'weibull': {
      const k = a.shape ?? weibullShapeForCv(a.cv ?? 1);
      const lambda = a.scale ?? mean / gammaFn(1 + 1 / k);
      return (rng) => lambda * (-Math.log(rng.nextOpen())) ** (1 / k);
    }
    case 'constant':
      return () => mean;
    case 'bursty': {
      const alpha = a.alpha ?? 1.5;
      const xm = (mean * (alpha - 1)) / alpha;
      return (rng) => xm / rng.nextOpen() ** (1 / alpha);
    }
    case 'periodic': {
      const j = a.jitter ?? 0;
      return (rng) => mean * (1 + j * (2 * rng.next() - 1));
    }
  }
}
