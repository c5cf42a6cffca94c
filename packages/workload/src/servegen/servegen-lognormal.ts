import type { BlisDist } from '../convert/blis-spec-document.js';
import { datasetWindows, nearestDatasetStart } from './servegen-dataset.js';
import type { ServeGenFiles, ServeGenLog } from './servegen-files.js';
import { fitLognormal } from './servegen-fit.js';

/** Sums of fitted (mu, sigma) over a cohort's chunks, and how many chunks gave a fit. */
export interface FitSums {
  muIn: number;
  sigmaIn: number;
  muOut: number;
  sigmaOut: number;
  count: number;
}

export const emptySums = (): FitSums => ({ muIn: 0, sigmaIn: 0, muOut: 0, sigmaOut: 0, count: 0 });

/**
 * Adds one chunk's lognormal fits at the time of day of the dataset window nearest before
 * `second`, averaged over the days that have it (BLIS's cohort loops). `strict`: BLIS's reasoning
 * path, which counts input and output fits apart and needs both; the language path counts a day
 * by its output fit alone. False when the chunk gave nothing (no dataset window at or before).
 */
export function addChunkFits(files: ServeGenFiles, dataset: string, second: number, sums: FitSums, strict: boolean, log: ServeGenLog, cohortId: string): boolean {
  const text = files.read(dataset);
  const ds = 'error' in text ? text : datasetWindows(text.text);
  if ('error' in ds) {
    log.warn(`skipping ${dataset} for cohort ${cohortId}: ${ds.error}`);
    return false;
  }
  const nearest = nearestDatasetStart(second, ds.byStart);
  if (nearest === undefined) {
    if (strict) log.warn(`skipping ${dataset} for cohort ${cohortId}: no dataset window at or before ${second} s`);
    return false;
  }
  let muIn = 0;
  let sigmaIn = 0;
  let muOut = 0;
  let sigmaOut = 0;
  let nIn = 0;
  let nOut = 0;
  for (const start of [...ds.byStart.keys()].sort((a, b) => a - b)) {
    if (start % 86400 !== nearest % 86400) continue;
    const w = ds.byStart.get(start)!;
    const fin = fitLognormal(w.input);
    if (!('error' in fin)) {
      muIn += fin.mu;
      sigmaIn += fin.sigma;
      nIn++;
    }
    const fout = fitLognormal(w.output);
    if (!('error' in fout)) {
      muOut += fout.mu;
      sigmaOut += fout.sigma;
      nOut++;
    }
  }
  // The language path divides the input sums by the output count (BLIS's own arithmetic).
  const dIn = strict ? nIn : nOut;
  if (strict ? nIn > 0 && nOut > 0 : nOut > 0) {
    sums.muIn += muIn / dIn;
    sums.sigmaIn += sigmaIn / dIn;
    sums.muOut += muOut / nOut;
    sums.sigmaOut += sigmaOut / nOut;
    sums.count++;
  }
  return true;
}

/** The cohort's averaged lognormals; BLIS's Gaussian fallback when no chunk gave a fit. */
export function averagedDists(s: FitSums): { input: BlisDist; output: BlisDist } {
  if (s.count === 0)
    return {
      input: { type: 'gaussian', params: { mean: 512, std_dev: 128, min: 1, max: 32768 } },
      output: { type: 'gaussian', params: { mean: 128, std_dev: 32, min: 1, max: 32768 } },
    };
  return {
    input: { type: 'lognormal', params: { mu: s.muIn / s.count, sigma: s.sigmaIn / s.count } },
    output: { type: 'lognormal', params: { mu: s.muOut / s.count, sigma: s.sigmaOut / s.count } },
  };
}
