import { defaultWorkers, parseQueueUrl, runQueueWorker } from '@blis/adapters';
import { MAX_EXACT_INTEGER, parseDecimal, parseDecimalInteger, quoteExcerpt } from '@blis/policies';
import { UsageError } from '../usage-error.js';
import { reportConnection } from './queued-sweep-command.js';
import { asUsageErrors, asUsageErrorsAsync } from './usage-errors.js';
import { positiveIntFlag } from './workers-flag.js';

/**
 * `blis worker --queue redis://...`: runs the jobs of every queued sweep on that Redis, on a pool
 * of worker threads, until stopped (Ctrl-C or SIGTERM: the jobs it holds finish first; a second
 * signal ends it at once, and Redis gives its jobs to another worker) or idle for --max-idle.
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
  const quiet = opts.quiet === true;
  const log = (line: string) => {
    if (!quiet) process.stderr.write(`blis worker: ${line}\n`);
  };
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(130);
    log('stopping after the jobs it holds (signal again to stop now)');
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
        signal: stop.signal,
        onLog: log,
        onConnection: (e) => reportConnection(url.display, e),
      }),
    );
    log(`stopped: ${summary.jobs} job(s) done, ${summary.failed} failed, ${summary.skipped} duplicate(s) skipped`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
