import { type ConnectionEvent, checkRedis, formatQueueProgress, jsonPathFor, parseQueueUrl } from '@blis/adapters/internal';
import { describeFound } from '@blis/policies/internal';
import { cleanQueuedSweep, loadSweepSpec, planSweep, queuedSweepStatus, runQueuedSweep } from '@blis/adapters';
import { stringifyResult } from '../output/json-output.js';
import { TaskProgress } from '../output/task-progress.js';
import { UsageError } from '../errors/usage-error.js';
import { requireWritable } from '../output/writable-output.js';
import { asUsageErrors, asUsageErrorsAsync } from './usage-errors.js';

/**
 * `blis sweep SPEC --queue redis://...`: the sweep's jobs go to Redis and `blis worker`s run
 * them; `--status` prints the state of that sweep and `--clean` removes it. The flags and the
 * server are checked first, then the spec is planned (and validated) in every case: its hash
 * names the sweep in Redis.
 */
export async function runQueuedSweepCommand(specFile: string, opts: Record<string, unknown>): Promise<void> {
  const url = asUsageErrors(() => parseQueueUrl(String(opts.queue)));
  if (opts.workers !== undefined) throw new UsageError([{ where: '--workers', expected: 'no --workers with --queue (each `blis worker` sets its own --concurrency)', found: describeFound(opts.workers) }]);
  if (opts.status === true && opts.clean === true) throw new UsageError([{ where: '--clean', expected: 'either --status or --clean', found: 'both' }]);
  const output = opts.output as string | undefined;
  const writing = opts.status !== true && opts.clean !== true;
  if (writing && output === undefined) throw new UsageError([{ where: '--output', expected: 'a results CSV path (needed unless --status or --clean)', found: 'nothing' }]);
  if (writing && output !== undefined) {
    requireWritable('--output', output);
    requireWritable('--output', jsonPathFor(output));
  }
  // The server before the plan: a wrong URL or a Redis that is down costs no planning.
  await asUsageErrorsAsync(() => checkRedis(url));
  const plan = asUsageErrors(() => planSweep(loadSweepSpec(specFile)));
  if (opts.status === true) {
    process.stdout.write(stringifyResult(await asUsageErrorsAsync(() => queuedSweepStatus(plan, url))));
    return;
  }
  if (opts.clean === true) {
    const removed = await asUsageErrorsAsync(() => cleanQueuedSweep(plan, url));
    process.stdout.write(stringifyResult({ queue: `sweep-${plan.hash.slice(0, 16)}`, spec_hash: plan.hash, removed }));
    return;
  }
  if (output === undefined) return;
  const quiet = opts.quiet === true;
  const bar = new TaskProgress('jobs', !quiet);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const outcome = await asUsageErrorsAsync(() =>
      runQueuedSweep(plan, {
        output,
        queue: url,
        restart: opts.restart === true,
        keepQueue: opts.keepQueue === true,
        signal: stop.signal,
        onProgress: (counts, rate) => bar.update(counts.done + counts.failed, counts.total, formatQueueProgress(counts, rate)),
        onConnection: (e) => reportConnection(url.display, e, bar),
        onNotice: (line) => {
          bar.finish();
          process.stderr.write(`blis: ${line}\n`);
        },
      }),
    );
    bar.finish();
    if (!quiet) {
      const resumed = outcome.resumed > 0 ? `, ${outcome.resumed} already done in Redis` : '';
      process.stderr.write(`blis: sweep of ${outcome.candidates} candidate(s) x ${plan.seeds.length} seed(s) on ${url.display} (${outcome.queue})${resumed}; wrote ${outcome.csvPath} and ${outcome.jsonPath}\n`);
    }
    process.stdout.write(stringifyResult({ csv: outcome.csvPath, json: outcome.jsonPath, candidates: outcome.candidates, seeds: plan.seeds, rows: outcome.rows, spec_hash: plan.hash, queue: outcome.queue }));
  } finally {
    bar.finish();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** A lost connection is said once when lost (with the retry schedule) and once when back. */
export function reportConnection(where: string, e: ConnectionEvent, bar?: TaskProgress): void {
  bar?.finish();
  if (e.kind === 'reconnected') process.stderr.write(`blis: reconnected to ${where}\n`);
  else if (e.attempt === 1 || e.attempt % 10 === 0) process.stderr.write(`blis: lost the connection to ${where} (${e.cause}); retrying (attempt ${e.attempt}, next in ${e.delayMs} ms)\n`);
}
