import { MAX_EXACT_INTEGER, parseDecimal, parseDecimalInteger, quoteExcerpt } from '@blis/policies/internal';
import { DEFAULT_STOP_TIMEOUT_MS, defaultWorkers, parseQueueUrl } from '@blis/adapters/internal';
import { type QueueWorkerSummary, runQueueWorker } from '@blis/adapters';
import { UsageError } from '../errors/usage-error.js';
import { reportConnection } from './queued-sweep-command.js';
import { asUsageErrors, asUsageErrorsAsync } from './usage-errors.js';
import { positiveIntFlag } from './workers-flag.js';

/** The longest --stop-timeout: a day is as good as waiting for ever, and timers stay exact. */
const MAX_STOP_TIMEOUT_S = 86_400;

/** A stop that left jobs behind (exit 1): Redis gives them to another worker when their locks expire. */
class JobsAbandonedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobsAbandonedError';
  }
}

/**
 * `blis worker --queue redis://...`: runs the jobs of every queued sweep on that Redis, on a pool
 * of worker threads, until stopped (Ctrl-C or SIGTERM: the jobs it holds get --stop-timeout to
 * finish, then are abandoned with exit 1; a second signal ends it at once, exit 130) or idle for
 * --max-idle. Supervisors stop with SIGTERM and kill after a grace period: the deadline is what
 * makes a worker whose Redis is gone stop at all.
 */
export async function runWorkerCommand(opts: Record<string, unknown>): Promise<void> {
  const url = asUsageErrors(() => parseQueueUrl(String(opts.queue)));
  const concurrency = positiveIntFlag('--concurrency', opts.concurrency, 'simulations at once') ?? defaultWorkers();
  const lockDurationMs = positiveIntFlag('--lock-duration', opts.lockDuration, 'milliseconds a job lock lasts without renewal');
  const maxStalled = opts.maxStalled === undefined ? undefined : parseDecimalInteger(String(opts.maxStalled));
  if (maxStalled !== undefined && (typeof maxStalled !== 'number' || maxStalled < 0))
    throw new UsageError([{ where: '--max-stalled', expected: `a non-negative integer up to ${MAX_EXACT_INTEGER} (times a job may be given back by dead workers)`, found: quoteExcerpt(String(opts.maxStalled)) }]);
  const maxIdle = opts.maxIdle === undefined ? undefined : parseDecimal(String(opts.maxIdle));
  if (opts.maxIdle !== undefined && !(maxIdle !== undefined && maxIdle > 0)) throw new UsageError([{ where: '--max-idle', expected: 'a positive number of seconds', found: quoteExcerpt(String(opts.maxIdle)) }]);
  const stopTimeout = opts.stopTimeout === undefined ? DEFAULT_STOP_TIMEOUT_MS / 1000 : parseDecimal(String(opts.stopTimeout));
  if (stopTimeout === undefined || stopTimeout < 0 || stopTimeout > MAX_STOP_TIMEOUT_S)
    throw new UsageError([{ where: '--stop-timeout', expected: `a number of seconds from 0 to ${MAX_STOP_TIMEOUT_S}`, found: quoteExcerpt(String(opts.stopTimeout)) }]);
  const quiet = opts.quiet === true;
  const log = (line: string) => {
    if (!quiet) process.stderr.write(`blis worker: ${line}\n`);
  };
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(130);
    log(`stopping after the jobs it holds, for up to ${stopTimeout} s (--stop-timeout; signal again to stop now)`);
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const summary = await asUsageErrorsAsync(() =>
      runQueueWorker({
        queue: url,
        concurrency,
        lockDurationMs,
        maxStalled,
        maxIdleMs: maxIdle === undefined ? undefined : maxIdle * 1000,
        stopTimeoutMs: Math.round(stopTimeout * 1000),
        signal: stop.signal,
        onLog: log,
        onConnection: (e) => reportConnection(url.display, e),
      }),
    );
    log(`stopped: ${summary.jobs} job(s) done, ${summary.failed} failed, ${summary.skipped} duplicate(s) skipped`);
    if (summary.abandoned > 0) throw new JobsAbandonedError(abandonedLine(summary, url.display, stopTimeout));
    if (summary.redisLost) log(`Redis at ${url.display} did not answer; stopped without it, holding no job`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function abandonedLine(summary: QueueWorkerSummary, where: string, seconds: number): string {
  const given = '(Redis gives them to another worker when their locks expire, after --lock-duration)';
  return summary.redisLost
    ? `Redis at ${where} did not answer; the worker stopped after ${seconds} s (--stop-timeout) with ${summary.abandoned} job(s) abandoned ${given}`
    : `${summary.abandoned} job(s) still running after ${seconds} s (--stop-timeout); the worker stopped with them abandoned ${given}`;
}
