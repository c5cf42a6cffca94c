import { UsageError } from './usage-error.js';

/** BLIS's `blis run --timeout` default, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 300;

/** `--timeout` seconds as BLIS reads them, in µs: negative disables the deadline (0), 0 is refused. */
export function timeoutUs(seconds: unknown): number | undefined {
  if (seconds === undefined) return undefined;
  const s = seconds as number;
  if (s === 0) throw new UsageError([{ where: '--timeout', expected: 'seconds > 0, or a negative number for no deadline', found: '0' }]);
  return s < 0 ? 0 : s * 1_000_000;
}
