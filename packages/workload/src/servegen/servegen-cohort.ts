import type { BlisCohort } from '../convert/blis-spec-document.js';
import { type FitSums, averagedDists } from './servegen-lognormal.js';

/**
 * What every cohort `blis convert servegen` writes shares, language or reasoning: one per SLO
 * class, all its clients streamed, its rate carried by the spike (so a rate fraction of 1), and
 * its lengths the lognormals averaged over its chunks' fits.
 */
export function servegenCohortBase(
  id: string,
  sloClass: string,
  population: number,
  sums: FitSums,
): Pick<BlisCohort, 'id' | 'population' | 'slo_class' | 'streaming' | 'rate_fraction' | 'input_distribution' | 'output_distribution'> {
  const { input, output } = averagedDists(sums);
  return { id, population, slo_class: sloClass, streaming: true, rate_fraction: 1, input_distribution: input, output_distribution: output };
}
