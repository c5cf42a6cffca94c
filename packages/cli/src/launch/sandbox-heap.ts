import { getHeapStatistics } from 'node:v8';

// The evaluation sandbox's heap as `blis evaluate` sets it. Here, not in the command, because the
// launcher starts the sandbox's thread before the CLI has loaded, and the thread's heap is fixed
// when it starts: the two must agree on it.

/** The variable that sets the candidate sandbox's heap in MiB (scenarios larger than the default's 2 GiB). */
export const SANDBOX_HEAP_ENV = 'BLIS_EVAL_SANDBOX_HEAP_MB';

/** @blis/adapters' SANDBOX_HEAP_MB: the launcher loads no @blis code (a test holds the two equal). */
export const DEFAULT_SANDBOX_HEAP_MB = 2048;

/** The heap for `env`, in MiB, or what the variable holds when it is not a whole number of at least 16 MiB. */
export function sandboxHeapMb(env: NodeJS.ProcessEnv = process.env): { mb: number } | { malformed: string } {
  const given = env[SANDBOX_HEAP_ENV];
  // As EvaluateSandbox's own default: at most this process's heap.
  if (given === undefined || given === '') return { mb: Math.min(DEFAULT_SANDBOX_HEAP_MB, Math.ceil(getHeapStatistics().heap_size_limit / 2 ** 20)) };
  const mb = Number(given);
  return /^\d+$/.test(given) && Number.isSafeInteger(mb) && mb >= 16 ? { mb } : { malformed: given };
}
