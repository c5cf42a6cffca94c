import { MAX_EXACT_INTEGER, parseDecimalInteger, quoteExcerpt } from '@blis/policies/internal';
import { UsageError } from '../errors/usage-error.js';

/** A positive integer flag of a command's own (not a SIMULATION_FLAGS one), or undefined when not given. */
export function positiveIntFlag(flag: string, raw: unknown, what: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = parseDecimalInteger(String(raw));
  if (typeof n !== 'number' || n < 1) throw new UsageError([{ where: flag, expected: `a positive integer (${what})${n === 'too-large' ? ` up to ${MAX_EXACT_INTEGER}` : ''}`, found: quoteExcerpt(String(raw)) }]);
  return n;
}

/** `--workers N`: a positive integer, or undefined when not given. */
export function parseWorkers(raw: unknown): number | undefined {
  return positiveIntFlag('--workers', raw, 'worker threads');
}
