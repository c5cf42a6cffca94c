import { defaultWorkers, journalPathFor, jsonPathFor } from '@blis/adapters/internal';
import { type SweepPool, expandCandidates, loadSweepSpec, planSweep, runSweep, startSweepPool } from '@blis/adapters';
import { stringifyResult } from '../output/json-output.js';
import { TaskProgress } from '../output/task-progress.js';
import { UsageError } from '../errors/usage-error.js';
import { requireWritable } from '../output/writable-output.js';
import { runQueuedSweepCommand } from './queued-sweep-command.js';
import { asUsageErrors, asUsageErrorsAsync } from './usage-errors.js';
import { parseWorkers } from './workers-flag.js';
import { memoryLimit } from './machine-memory.js';

/**
 * `blis sweep SPEC.yaml --output results.csv`: plans and validates every candidate, runs the
 * rows an earlier interrupted run did not journal, writes the CSV and the JSON beside it, and
 * prints a short JSON summary on stdout.
 */
export async function runSweepCommand(specFile: string, opts: Record<string, unknown>): Promise<void> {
  if (opts.queue === undefined) {
    for (const flag of ['status', 'clean', 'keepQueue'] as const)
      if (opts[flag] === true) throw new UsageError([{ where: `--${flag === 'keepQueue' ? 'keep-queue' : flag}`, expected: '--queue redis://HOST:PORT (it applies to queued sweeps only)', found: 'no --queue' }]);
  } else {
    await runQueuedSweepCommand(specFile, opts);
    return;
  }
  const output = opts.output as string | undefined;
  if (output === undefined) throw new UsageError([{ where: '--output', expected: 'a results CSV path', found: 'nothing' }]);
  const workers = parseWorkers(opts.workers) ?? defaultWorkers();
  requireWritable('--output', output);
  requireWritable('--output', jsonPathFor(output));
  const limit = memoryLimit(opts.ignoreMemoryLimit === true);
  const loaded = asUsageErrors(() => loadSweepSpec(specFile));
  // The worker threads load the simulator (about half a second each) while this thread
  // validates every candidate, instead of after; no more of them than there are tasks.
  const threads = Math.min(workers, taskCount(loaded));
  const pool: SweepPool | undefined = threads > 1 ? await startSweepPool(threads) : undefined;
  const quiet = opts.quiet === true;
  let plan: ReturnType<typeof planSweep>;
  let outcome: Awaited<ReturnType<typeof runSweep>>;
  try {
    plan = asUsageErrors(() => planSweep(loaded, limit !== undefined ? { limit, workers } : undefined));
    const bar = new TaskProgress('runs', !quiet);
    const p = plan;
    outcome = await asUsageErrorsAsync(() => runSweep(p, { output, workers, restart: opts.restart === true, onProgress: (d, t) => bar.update(d, t), ...(pool !== undefined ? { pool } : {}) }));
    bar.finish();
  } finally {
    await pool?.destroy();
  }
  if (!quiet) {
    const resumed = outcome.resumed > 0 ? `, ${outcome.resumed} resumed from ${journalPathFor(output)}` : '';
    process.stderr.write(`blis: sweep of ${outcome.candidates} candidate(s) x ${plan.seeds.length} seed(s) on ${Math.min(workers, plan.tasks.length)} worker(s)${resumed}; wrote ${outcome.csvPath} and ${outcome.jsonPath}\n`);
  }
  process.stdout.write(stringifyResult({ csv: outcome.csvPath, json: outcome.jsonPath, candidates: outcome.candidates, seeds: plan.seeds, rows: outcome.rows, spec_hash: plan.hash }));
}

/** How many tasks the spec expands to, or 0 when it does not expand (planning says why). */
function taskCount(loaded: ReturnType<typeof loadSweepSpec>): number {
  try {
    return expandCandidates(loaded.spec, loaded).length * loaded.spec.seeds.length;
  } catch {
    return 0;
  }
}
