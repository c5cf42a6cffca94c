import { QueueConnectionError, SweepSpecError } from '@blis/adapters';
import { UsageError } from '../errors/usage-error.js';

/** Whether `e` is a located input error of a sweep: a spec problem or a queue URL / Redis refusal. */
function located(e: unknown): e is SweepSpecError | QueueConnectionError {
  return e instanceof SweepSpecError || e instanceof QueueConnectionError;
}

/** Sweep input errors are the user's input: report them as usage errors (exit 2, nothing on stdout). */
export function asUsageErrors<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (located(e)) throw new UsageError(e.issues);
    throw e;
  }
}

/** {@link asUsageErrors} for a promise. */
export async function asUsageErrorsAsync<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (located(e)) throw new UsageError(e.issues);
    throw e;
  }
}
