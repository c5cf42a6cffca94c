import type { BlisArrival } from '../convert/blis-spec-document.js';
import type { ServeGenTraceRow } from './servegen-trace.js';

/**
 * A trace row's arrival process (BLIS's buildArrivalSpecFromRow): Gamma or Weibull with the
 * row's CV when positive and its fitted shape and scale (scale in µs) when both are positive;
 * Poisson for a row without a fitted pattern.
 */
export function rowArrival(row: ServeGenTraceRow): BlisArrival {
  const process = row.pattern.toLowerCase();
  if (row.pattern === '' || (process !== 'gamma' && process !== 'weibull')) return { process: 'poisson' };
  return {
    process,
    ...(row.cv > 0 ? { cv: row.cv } : {}),
    ...(row.shape > 0 && row.scale > 0 ? { shape: row.shape, scale: row.scale * 1e6 } : {}),
  };
}
