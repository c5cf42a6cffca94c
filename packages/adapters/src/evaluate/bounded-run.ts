import { Script, createContext } from 'node:vm';
import type { CallWatch, RunningCall } from '@blis/policies';

/**
 * Candidate code runs on this thread, inside the simulation; a `while (true) {}` in it never
 * gives the request's own budget checks a turn. A `vm` script's `timeout` is enforced from
 * another thread by V8 (it terminates this thread's JavaScript and turns that into an error),
 * and it covers everything the script calls, main-realm functions included: so the candidate's
 * module, its factory and each scenario run inside one such script, and a stuck one ends as an
 * error that {@link runBounded} reports, leaving the process (and `--serve`) alive.
 */
const context = createContext({ run: undefined as (() => unknown) | undefined });
const script = new Script('run()', { filename: 'blis-evaluate-budget' });

/** Thrown where the request's own budget checks (between steps of its work) find it spent. */
export class BudgetSpent extends Error {}

/** Raised by {@link runBounded} when `fn` did not return within its time. */
export class WallBudgetExceeded extends Error {
  constructor(readonly ms: number) {
    super(`did not return within ${ms} ms`);
    this.name = 'WallBudgetExceeded';
  }
}

/** `fn()`, stopped after `ms` of wall-clock time (at least 1 ms) with {@link WallBudgetExceeded}. */
export function runBounded<T>(ms: number, fn: () => T): T {
  const timeout = Math.max(1, Math.ceil(ms));
  context.run = fn;
  try {
    return script.runInContext(context, { timeout }) as T;
  } catch (e) {
    if ((e as { code?: string } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new WallBudgetExceeded(timeout);
    throw e;
  } finally {
    context.run = undefined;
  }
}

/** Which guarded candidate call is running, so that a stopped run can say where it was stuck. */
export class CandidateCallWatch implements CallWatch {
  running: RunningCall | undefined;

  enter(call: RunningCall): void {
    this.running = call;
  }

  leave(): void {
    this.running = undefined;
  }
}
