import type { SimulationConfigInput } from '@blis/cluster';
import type { ParameterValue, SweepSpec } from './sweep-spec-schema.js';

/** One row of a sweep's results: a candidate with one seed, what produced it and what it measured. */
export interface SweepResultRow {
  candidate: number;
  seed: number;
  parameters: Record<string, ParameterValue>;
  metrics: Record<string, number | null>;
  config: SimulationConfigInput;
}

/** The JSON results file: the spec, its hash and the rows, in (candidate, seed) order. */
export interface SweepResults {
  format: 'blis-sweep/1';
  spec: SweepSpec;
  spec_hash: string;
  parameters: string[];
  metrics: string[];
  rows: SweepResultRow[];
}

/** A CSV field: numbers in JavaScript's shortest round-trip form, null empty, text quoted when it must be (RFC 4180). */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV results: candidate, seed, one column per parameter, one per metric. */
export function sweepCsv(results: Pick<SweepResults, 'parameters' | 'metrics' | 'rows'>): string {
  const header = ['candidate', 'seed', ...results.parameters, ...results.metrics].map(csvField).join(',');
  const lines = results.rows.map((r) => [r.candidate, r.seed, ...results.parameters.map((p) => r.parameters[p]), ...results.metrics.map((m) => r.metrics[m])].map(csvField).join(','));
  return `${[header, ...lines].join('\n')}\n`;
}

/** The JSON results, two-space indented, keys in a fixed order (equal runs give equal bytes). */
export function sweepJson(results: SweepResults): string {
  return `${JSON.stringify(results, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`;
}
