import { closeSync, writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { CallWatch, RunningCall } from '@blis/policies';
import { WATCHDOG_THREAD_SOURCE } from './watchdog-thread.js';

/** How often the watchdog thread looks, in ms: a stuck call is stopped this much past its limit at most. */
const POLL_MS = 50;

/** The global the watchdog thread has the main thread call when it fires. */
const HANDLER = '__blisPolicyWatchdogFired';

/** What is armed: a guarded policy call, or a phase of loading (a module's import, a factory). */
type Armed = { kind: 'call'; call: RunningCall; limitMs: number } | { kind: 'phase'; where: string; expected: string; limitMs: number };

/**
 * Stops a run whose custom policy code never returns. A policy call over `--policy-budget-ms` is
 * reported by its guard once it returns; one that never returns leaves this thread no turn, so a
 * second thread watches a shared cell that each guarded call (through {@link CallWatch}) and each
 * phase of loading arm, and past the limit makes this thread report the call (module, method,
 * decision) on stderr and exit 2, as every bad input does. Started only when a command loads a
 * policy module: runs of built-in policies have no thread and no cell to write.
 */
export class PolicyWatchdog implements CallWatch {
  private readonly cell = new Float64Array(new SharedArrayBuffer(16));
  private armed: Armed | undefined;

  constructor(private budgetMs: number) {
    (globalThis as Record<string, unknown>)[HANDLER] = () => this.fire();
    const worker = new Worker(WATCHDOG_THREAD_SOURCE, { eval: true, workerData: { cell: this.cell.buffer, handler: HANDLER, pollMs: POLL_MS } });
    // It must never keep the process alive, nor its failure end a run.
    worker.unref();
    worker.on('error', () => {});
  }

  /** The limit of each policy call from now on (`--policy-budget-ms`). */
  setBudget(ms: number): void {
    this.budgetMs = ms;
  }

  /** The limit of each policy call, in ms. */
  get budget(): number {
    return this.budgetMs;
  }

  /**
   * How long a call may run before it is stopped: its budget plus as long again (at least 1 s),
   * so that a call that only runs over and returns is reported by its guard with its time.
   */
  private get limitMs(): number {
    return this.budgetMs + Math.max(this.budgetMs, 1000);
  }

  enter(call: RunningCall): void {
    this.arm({ kind: 'call', call, limitMs: this.limitMs });
  }

  leave(): void {
    this.disarm(undefined);
  }

  /** `fn()` (a factory call), stopped if it runs past the policy budget. */
  factory<T>(where: string, fn: () => T): T {
    const before = this.arm({ kind: 'phase', where, expected: `a factory that returns within ${this.limitMs} ms (the budget per decision is ${this.budgetMs} ms, --policy-budget-ms)`, limitMs: this.limitMs });
    try {
      return fn();
    } finally {
      this.disarm(before);
    }
  }

  /**
   * `load()` (a module's import), stopped if it has not finished after `limitMs`. The watch
   * covers the whole import, reading files included, so the caller gives a generous limit: it is
   * there for a module whose top-level code never ends.
   */
  async load<T>(where: string, limitMs: number, load: () => Promise<T>): Promise<T> {
    const before = this.arm({ kind: 'phase', where, expected: `a module that loads within ${limitMs} ms`, limitMs });
    try {
      return await load();
    } finally {
      this.disarm(before);
    }
  }

  private arm(next: Armed): Armed | undefined {
    const before = this.armed;
    this.armed = next;
    this.cell[1] = next.limitMs;
    this.cell[0] = Date.now();
    return before;
  }

  /** Back to what was armed before (a phase around a call), or to nothing. */
  private disarm(before: Armed | undefined): void {
    this.armed = before;
    if (before === undefined) this.cell[0] = 0;
    else this.cell[1] = before.limitMs;
  }

  /** Runs on this thread, inside the stuck code's interrupt: report, then end the process at once. */
  private fire(): void {
    const a = this.armed;
    if (a === undefined) return;
    const line =
      a.kind === 'call'
        ? a.call.error(`did not return within ${a.limitMs} ms (the budget per decision is ${this.budgetMs} ms, --policy-budget-ms); the run was stopped`).message
        : `${a.where}: expected ${a.expected}, found it still running; the run was stopped`;
    writeSync(2, `blis: ${line}\n`);
    // The inspector session the watchdog opened would add "Waiting for the debugger to
    // disconnect..." at exit: stderr is closed first. The usual exit hooks (progress bars, the
    // code cache) cannot run on a thread stuck mid-call either, so none are run.
    closeSync(2);
    const exit = (process as unknown as { reallyExit?: (code: number) => never }).reallyExit;
    if (typeof exit === 'function') exit(2);
    process.exit(2);
  }
}

let shared: PolicyWatchdog | undefined;

/** The process's watchdog (one thread however many runs), with `budgetMs` as its budget. */
export function policyWatchdog(budgetMs: number): PolicyWatchdog {
  if (shared === undefined) shared = new PolicyWatchdog(budgetMs);
  else shared.setBudget(budgetMs);
  return shared;
}
