import { goLog } from '../go-rand/go-log.js';

export type LognormalFit = { mu: number; sigma: number } | { error: string };

/**
 * A lognormal fitted to a token PMF as BLIS fits it (fitLognormalFromPDF): the probability-
 * weighted mean and variance of ln(tokens), over positive token counts of positive probability,
 * summed in ascending token order with Go's logarithm so the sums are Go's to the last bit.
 */
export function fitLognormal(pdf: ReadonlyMap<number, number>): LognormalFit {
  if (pdf.size === 0) return { error: 'an empty PMF' };
  const keys = [...pdf.keys()].sort((a, b) => a - b);
  let sumProb = 0;
  let sumLogX = 0;
  let sumLogXSq = 0;
  for (const value of keys) {
    const prob = pdf.get(value)!;
    if (value <= 0) continue;
    if (prob < 0) return { error: `a negative probability ${prob} for ${value} tokens` };
    if (prob === 0) continue;
    const logX = goLog(value);
    sumProb += prob;
    sumLogX += prob * logX;
    sumLogXSq += prob * logX * logX;
  }
  if (sumProb <= 0) return { error: 'probabilities summing to zero' };
  const mu = sumLogX / sumProb;
  let variance = sumLogXSq / sumProb - mu * mu;
  if (variance < 0) {
    if (variance > -1e-10) variance = 0;
    else return { error: `a negative variance ${variance}` };
  }
  return { mu, sigma: Math.sqrt(variance) };
}
