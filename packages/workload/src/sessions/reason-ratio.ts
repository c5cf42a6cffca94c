import type { GoRand } from '../go-rand/go-rand.js';
import { type DistributionSpec, lengthSampler } from '../distributions.js';
import type { ClientSpec } from '../client-schema.js';

type ReasonRatioSpec = NonNullable<NonNullable<ClientSpec['reasoning']>['reason_ratio_distribution']>;

/**
 * The draw BLIS makes for a round's reason ratio on the client's stream (reasoning.go:
 * NewLengthSampler of `reason_ratio_distribution`). The ratio itself moves nothing here; the
 * draw moves the stream, so it is made. Undefined without a distribution.
 */
export function reasonRatioSampler(d: ReasonRatioSpec | undefined): ((rng: GoRand) => void) | undefined {
  if (d === undefined) return undefined;
  if (d.type === 'empirical' && !('values' in d.params) && !('file' in d.params) && !('column' in d.params)) return pdfTableDraw(d.params as Record<string, number>);
  const sample = lengthSampler(d as DistributionSpec);
  return (rng) => {
    sample(rng);
  };
}

/**
 * BLIS's EmpiricalPDFSampler over a probability table (value -> probability, keys read as Go's
 * `%d` reads them): no draw for a table of fewer than two positive bins, else one Float64.
 */
function pdfTableDraw(table: Record<string, number>): (rng: GoRand) => void {
  const bins = new Set<number>();
  for (const [k, p] of Object.entries(table)) if (p > 0) bins.add(Number.parseInt(k, 10));
  if (bins.size < 2) return () => {};
  return (rng) => {
    rng.float64();
  };
}
