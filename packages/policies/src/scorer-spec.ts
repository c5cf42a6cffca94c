import { parseDecimal } from './decimal-number.js';
import { quoteExcerpt } from './found-text.js';

/** One scorer of a weighted routing policy. Weights are relative; only ratios matter. */
export interface ScorerConfig {
  readonly name: string;
  readonly weight: number;
  /** Parameters handed to the scorer's factory (e.g. `{ lruCapacity: 5000 }`). */
  readonly params?: Readonly<Record<string, unknown>>;
}

/**
 * BLIS's default weighted profile (as of BLIS f90a1e3a, llm-d's default):
 * precise-prefix-cache:2, queue-depth:1, kv-utilization:1.
 */
export const DEFAULT_SCORER_CONFIGS: readonly ScorerConfig[] = Object.freeze([
  Object.freeze({ name: 'precise-prefix-cache', weight: 2 }),
  Object.freeze({ name: 'queue-depth', weight: 1 }),
  Object.freeze({ name: 'kv-utilization', weight: 1 }),
]);

/** A malformed `--routing-scorers` value. */
export class ScorerSpecError extends Error {
  override readonly name = 'ScorerSpecError';
}

/**
 * Parses `"name:weight,name:weight"` against the given scorer names. Empty or blank text gives
 * an empty list (callers then use the default profile). Errors name the offending entry and,
 * for unknown scorers, list the valid names.
 */
export function parseScorerList(text: string, validNames: readonly string[]): ScorerConfig[] {
  if (text.trim() === '') return [];
  const valid = new Set(validNames);
  const sorted = [...validNames].sort();
  const seen = new Set<string>();
  const out: ScorerConfig[] = [];
  for (const rawPart of text.split(',')) {
    const part = rawPart.trim();
    const colon = part.indexOf(':');
    if (colon < 0) {
      throw new ScorerSpecError(`invalid scorer entry ${quoteExcerpt(part)}: expected name:weight`);
    }
    const name = part.slice(0, colon).trim();
    const weightText = part.slice(colon + 1).trim();
    if (!valid.has(name)) {
      throw new ScorerSpecError(`unknown scorer ${quoteExcerpt(name)}; valid: ${sorted.join(', ')}`);
    }
    if (seen.has(name)) {
      throw new ScorerSpecError(`duplicate scorer "${name}"; each scorer may appear at most once`);
    }
    seen.add(name);
    const weight = parseDecimal(weightText) ?? Number.NaN;
    if (!Number.isFinite(weight) || weight <= 0) {
      throw new ScorerSpecError(
        `scorer "${name}" weight must be a finite number > 0, got ${quoteExcerpt(weightText)}`,
      );
    }
    out.push({ name, weight });
  }
  return out;
}

/** `[{name:'queue-depth',weight:2}]` -> `"queue-depth:2"` (the inverse of parsing). */
export function formatScorerList(configs: readonly ScorerConfig[]): string {
  return configs.map((c) => `${c.name}:${c.weight}`).join(',');
}
