import { UsageError } from '../usage-error.js';

/** `--workers N`: a positive integer, or undefined when not given. */
export function parseWorkers(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError([{ where: '--workers', expected: 'a positive integer (worker threads)', found: JSON.stringify(raw) }]);
  return n;
}
