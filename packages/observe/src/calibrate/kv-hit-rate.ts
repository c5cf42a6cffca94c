import { describeFound, jsonSyntaxProblem, messageText, zodIssueTexts } from '@blis/policies/internal';
import * as z from 'zod';
import { CalibrationInputError } from './errors.js';
import { readResultsText } from './results-text.js';

/** The real server's scraped KV hit rate against the simulator's, in percentage points. */
export interface HitRateComparison {
  real_hit_rate: number;
  sim_hit_rate: number;
  /** |sim − real| × 100. */
  abs_error_pp: number;
  tolerance_pp: number;
  within: boolean;
  /** The scrape's counter family (`tiered` or `gpu-prefix-cache-fallback`), so a weaker one shows. */
  source: string;
}

/** A MAPE against a threshold, both fractions. */
export interface ToleranceVerdict {
  mape: number;
  threshold: number;
  within: boolean;
}

// The rounding slack that keeps a band's edge inside it: |0.75 − 0.70| × 100 is 5.000000000000004.
const BOUNDARY_EPS = 1e-9;

export function compareHitRate(realHitRate: number, simHitRate: number, tolerancePp: number, source: string): HitRateComparison {
  const abs = Math.abs(simHitRate - realHitRate) * 100;
  return { real_hit_rate: realHitRate, sim_hit_rate: simHitRate, abs_error_pp: abs, tolerance_pp: tolerancePp, within: abs <= tolerancePp + BOUNDARY_EPS, source };
}

export function ttftTolerance(mape: number, threshold: number): ToleranceVerdict {
  return { mape, threshold, within: mape <= threshold };
}

const MetricsSchema = z.object({ cache_hit_rate: z.number('expected a number in [0, 1]').min(0, 'expected a number in [0, 1]').max(1, 'expected a number in [0, 1]').nullable().optional() }).loose();

/**
 * `cache_hit_rate` of a metrics JSON object: BLIS's `--metrics-path` file, or the JSON `blis
 * run/replay` print (or write with `--results-path`). Undefined when the object has none.
 */
export function parseSimCacheHitRate(text: string, file: string): number | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    // In our words, at its line and column: V8's message varies by version and quotes the input.
    const p = jsonSyntaxProblem(text, 'the end of the file');
    if (p === undefined) throw new CalibrationInputError([{ file, expected: 'a metrics JSON object (`blis replay` output)', found: messageText((e as Error).message) }]);
    throw new CalibrationInputError([{ file, line: p.line, expected: `a metrics JSON object (\`blis replay\` output): ${p.expected}`, found: p.found === 'the end of the file' ? p.found : `${p.found} at column ${p.column}` }]);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new CalibrationInputError([{ file, expected: 'a metrics JSON object with cache_hit_rate', found: describeFound(raw) }]);
  const r = MetricsSchema.safeParse(raw);
  if (!r.success) {
    const [t] = zodIssueTexts(r.error.issues, raw);
    throw new CalibrationInputError([{ file, field: 'cache_hit_rate', expected: t.expected, found: t.found }]);
  }
  return r.data.cache_hit_rate ?? undefined;
}

export function readSimCacheHitRate(path: string): number | undefined {
  return parseSimCacheHitRate(readResultsText(path, 'metrics JSON file'), path);
}
