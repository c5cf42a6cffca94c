import { PolicyError, type PolicyKind } from '../errors.js';
import type { DescribeCall } from './decision-context.js';
import { ReadOnlyViews } from './read-only-view.js';

/** How {@link guardPolicy} checks a policy. */
export interface GuardOptions {
  /** Where the policy came from (a module path), named in every error. */
  source?: string;
  /**
   * Wall-clock budget of one call, in ms: a call that takes longer raises a PolicyError once it
   * has returned (a call that never returns cannot be interrupted in-process). Unset: none.
   */
  budgetMs?: number;
  /**
   * Hand the policy read-only proxies of the request, router state, scheduler entries and
   * autoscaler context: the first write raises a PolicyError naming the path written. Slow
   * (every read goes through a proxy): for tests and development.
   */
  readOnly?: boolean;
  /** The clock the budget is measured with, in ms (default `performance.now`). */
  clock?: () => number;
  /**
   * Told when each call starts and ends. A call that never returns cannot be stopped from its
   * own thread; a watchdog elsewhere (a `vm` timeout, a watchdog thread) can, and then names the
   * call in progress through it. Unset: nothing is told.
   */
  watch?: CallWatch;
}

/** The guarded call in progress, as a watchdog that stopped it reports it. */
export interface RunningCall {
  /** A PolicyError about this call (policy, source, method, decision) with `problem`. */
  error(problem: string): PolicyError;
}

/** What a guard tells a watchdog: a call began, the call ended (returned or threw). */
export interface CallWatch {
  enter(call: RunningCall): void;
  leave(): void;
}

const firstLine = (e: unknown): string => {
  const text = e instanceof Error ? e.message : String(e);
  const nl = text.indexOf('\n');
  return nl < 0 ? text : text.slice(0, nl);
};

/** `1834`, `52.3`, `0.42`: milliseconds as a message shows them. */
function formatMs(ms: number): string {
  return ms >= 100 ? String(Math.round(ms)) : String(Number(ms.toPrecision(3)));
}

/**
 * The bookkeeping of one guarded policy: the call in progress (for the error's context), the
 * first write to a view, the clock. One per policy object; calls do not nest within one policy.
 */
export class CallGuard implements RunningCall {
  readonly views: ReadOnlyViews | undefined;
  private method = '';
  private describe: DescribeCall | undefined;
  private a: unknown;
  private b: unknown;
  private c: unknown;
  private written: PolicyError | undefined;
  private readonly budgetMs: number | undefined;
  private readonly clock: () => number;
  private readonly watch: CallWatch | undefined;

  constructor(
    private readonly kind: PolicyKind,
    private readonly policyName: string,
    private readonly source: string | undefined,
    options: GuardOptions,
  ) {
    this.budgetMs = options.budgetMs;
    this.clock = options.clock ?? (() => performance.now());
    this.watch = options.watch;
    this.views = options.readOnly === true ? new ReadOnlyViews((path) => this.wrote(path)) : undefined;
  }

  /** `value` as the policy may see it: a read-only view in check mode, else itself. */
  ro<T>(value: T, path: string): T {
    return this.views === undefined ? value : this.views.view(value, path);
  }

  /** Records the call about to run (its raw arguments describe it on failure); returns its start time. */
  private enter(method: string, describe: DescribeCall, a?: unknown, b?: unknown, c?: unknown): number {
    this.method = method;
    this.describe = describe;
    this.a = a;
    this.b = b;
    this.c = c;
    this.written = undefined;
    this.watch?.enter(this);
    return this.budgetMs === undefined ? 0 : this.clock();
  }

  /** What to throw when the call threw `e`: a PolicyError (ours, or another guard's) passes through. */
  private threw(e: unknown): PolicyError {
    if (this.written !== undefined) return this.written;
    if (e instanceof PolicyError) return e;
    return this.error(`threw: ${firstLine(e)}`, e);
  }

  /** After a call returned: the first write to a view (even one the policy caught), then the budget. */
  private leave(start: number): void {
    if (this.written !== undefined) throw this.written;
    if (this.budgetMs === undefined) return;
    const ms = this.clock() - start;
    if (ms > this.budgetMs) throw this.error(`took ${formatMs(ms)} ms; the budget per decision is ${this.budgetMs} ms`);
  }

  /**
   * One call of the policy, checked: `invoke` runs it (on the views `ro` gives), then the first
   * write, the budget and `problem` (what is wrong with its answer, if anything) are checked.
   * `a`, `b`, `c` are the raw arguments `describe` names the decision from on failure.
   */
  call<T>(method: string, describe: DescribeCall, invoke: () => T, problem?: (answer: T) => string | undefined, a?: unknown, b?: unknown, c?: unknown): T {
    const start = this.enter(method, describe, a, b, c);
    let answer: T;
    try {
      answer = invoke();
    } catch (e) {
      this.watch?.leave();
      throw this.threw(e);
    }
    this.watch?.leave();
    this.leave(start);
    if (problem !== undefined) this.check(problem(answer));
    return answer;
  }

  /** A PolicyError about the current call. */
  error(problem: string, cause?: unknown): PolicyError {
    const context = this.describe === undefined ? 'a call' : this.describe(this.a, this.b, this.c);
    return new PolicyError({ kind: this.kind, policyName: this.policyName, source: this.source, method: this.method, context, problem, cause });
  }

  /** Throws `problem` when there is one. */
  check(problem: string | undefined): void {
    if (problem !== undefined) throw this.error(problem);
  }

  private wrote(path: string): never {
    this.written ??= this.error(`wrote ${path}; the views a policy receives are read-only`);
    throw this.written;
  }
}
