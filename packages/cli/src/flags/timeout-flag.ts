import { UsageError } from '../errors/usage-error.js';

/** The longest deadline the µs clock can hold, in whole seconds. */
const MAX_TIMEOUT_SECONDS = Math.floor(Number.MAX_SAFE_INTEGER / 1_000_000);

/** BLIS's `blis run --timeout` default, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 300;

/** `--timeout` seconds as BLIS reads them, in µs: negative disables the deadline (0), 0 is refused. */
export function timeoutUs(seconds: unknown): number | undefined {
  if (seconds === undefined) return undefined;
  const s = seconds as number;
  if (s === 0) throw new UsageError([{ where: '--timeout', expected: 'seconds > 0, or a negative number for no deadline', found: '0' }]);
  // The simulated clock counts whole µs up to 2^53 - 1: about 285 years.
  if (s > MAX_TIMEOUT_SECONDS) throw new UsageError([{ where: '--timeout', expected: `at most ${MAX_TIMEOUT_SECONDS} seconds (the simulated clock's range), or a negative number for no deadline`, found: String(s) }]);
  return s < 0 ? 0 : s * 1_000_000;
}
