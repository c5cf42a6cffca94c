import { ThinkTimeDistError, flagSpecObject, parseThinkTimeDist } from '@blis/workload/internal';
import { camel } from '../flags/flag-name.js';
import { lengthFlagValues } from '../flags/length-flags.js';
import { DEFAULT_TIMEOUT_SECONDS, timeoutUs } from '../flags/timeout-flag.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';

/** `--think-time-dist` checked, its problem added to `issues`. */
function checkThinkTimeDist(text: string | undefined, issues: UsageIssue[]): void {
  if (text === undefined) return;
  try {
    parseThinkTimeDist(text);
  } catch (e) {
    if (!(e instanceof ThinkTimeDistError)) throw e;
    issues.push({ where: `--think-time-dist ${e.part}`, expected: e.expected, found: e.found });
  }
}

/** The replay's session settings (BLIS's rules: think times need closed-loop and exclude each other), for the trace workload. */
export function replaySessionSettings(f: Record<string, unknown>): { sessionMode: 'fixed' | 'closed-loop'; thinkTimeUs?: number; thinkTimeDist?: string } {
  const mode = (f.sessionMode as 'fixed' | 'closed-loop' | undefined) ?? 'fixed';
  const ms = f.thinkTimeMs as number | undefined;
  const dist = f.thinkTimeDist as string | undefined;
  const issues: UsageIssue[] = [];
  // As BLIS: --think-time-ms 0 is the default and allowed in fixed mode; a positive one is not.
  if (ms !== undefined && ms > 0 && mode !== 'closed-loop') issues.push({ where: '--think-time-ms', expected: '--session-mode closed-loop beside it (think time paces closed-loop sessions)', found: `--session-mode ${mode}` });
  if (dist !== undefined && mode !== 'closed-loop') issues.push({ where: '--think-time-dist', expected: '--session-mode closed-loop beside it (think time paces closed-loop sessions)', found: `--session-mode ${mode}` });
  if (ms !== undefined && dist !== undefined) issues.push({ where: '--think-time-dist', expected: 'one of --think-time-ms and --think-time-dist', found: 'both' });
  checkThinkTimeDist(dist, issues);
  if (mode === 'closed-loop') {
    if (f.traceFormat !== undefined && f.traceFormat !== 'tracev2') issues.push({ where: '--session-mode', expected: 'a TraceV2 trace for closed-loop (its session_id and round_index columns)', found: `--trace-format ${String(f.traceFormat)}` });
    if (f.timeScale !== undefined && f.timeScale !== 1) issues.push({ where: '--time-scale', expected: '1 with --session-mode closed-loop (recorded think times are not scaled)', found: String(f.timeScale) });
  }
  if (issues.length > 0) throw new UsageError(issues);
  return { sessionMode: mode, ...(ms !== undefined && ms > 0 ? { thinkTimeUs: ms * 1000 } : {}), ...(dist !== undefined ? { thinkTimeDist: dist } : {}) };
}

/**
 * `blis run --concurrency N`: BLIS's SynthesizeFromDistribution in concurrency mode, a spec of one
 * closed-loop client with the length flags' distributions, as a spec workload. BLIS's rules: not
 * with --rate or --workload-spec; --num-requests only when given (no default of 100), so it or
 * --horizon must bound the run. --workload and --arrival-process, which BLIS ignores here, are refused.
 * Undefined when --concurrency is off; --think-time-ms without it is refused.
 */
export function runClosedLoopWorkload(f: Record<string, unknown>) {
  const users = (f.concurrency as number | undefined) ?? 0;
  if (users === 0) {
    if (f.thinkTimeMs !== undefined) throw new UsageError([{ where: '--think-time-ms', expected: '--concurrency N > 0 beside it (think time belongs to the closed loop)', found: f.concurrency === undefined ? 'no --concurrency' : '--concurrency 0' }]);
    return undefined;
  }
  const issues: UsageIssue[] = [];
  if (f.workloadSpec !== undefined) issues.push({ where: '--concurrency', expected: 'no --workload-spec beside it (define clients[].concurrency in the spec instead)', found: '--workload-spec' });
  const conflicting = ['rate', 'workload', 'arrival-process'].filter((n) => f[camel(n)] !== undefined);
  if (conflicting.length > 0) issues.push({ where: '--concurrency', expected: 'a closed loop without an arrival rate, preset or arrival process', found: conflicting.map((n) => `--${n}`).join(', ') });
  if (f.workloadSpec === undefined && f.numRequests === undefined && f.horizon === undefined) issues.push({ where: '--num-requests', expected: 'a bound on the closed loop: --num-requests or --horizon (--concurrency has no default request count)', found: 'neither' });
  if (issues.length > 0) throw new UsageError(issues);
  const { arrivalProcess: _, ...lengths } = lengthFlagValues(f);
  const spec = flagSpecObject({
    ...lengths,
    concurrency: users,
    thinkTimeMs: (f.thinkTimeMs as number | undefined) ?? 0,
    numRequests: f.numRequests as number | undefined,
    seed: (f.seed as number | undefined) ?? 42,
    timeoutUs: timeoutUs(f.timeout ?? DEFAULT_TIMEOUT_SECONDS),
  });
  return { kind: 'spec' as const, spec, numRequests: f.numRequests as number | undefined };
}
