import { writeFileSync } from 'node:fs';
import { JournalWriter, readJournal, rowKey } from './sweep-journal.js';
import { type SweepResults, sweepCsv, sweepJson } from './sweep-output.js';
import type { SweepPlan } from './sweep-plan.js';
import { type SweepPool, runTasks } from './sweep-runner.js';
import type { SweepRow } from './sweep-task.js';

/** How to run a planned sweep. */
export interface RunSweepOptions {
  /** The CSV results file; the JSON goes beside it (`.csv` replaced by `.json`), the journal at `<output>.partial`. */
  output: string;
  /** Worker threads (default: available parallelism); 1 runs inline. */
  workers?: number;
  /** Discard a journal left by an earlier run instead of resuming from it. */
  restart?: boolean;
  /** Called after each finished task with the count done (resumed rows included) and the total. */
  onProgress?: (done: number, total: number) => void;
  /** Worker threads started before planning ({@link startSweepPool}); the caller destroys them. */
  pool?: SweepPool;
}

/** What a finished sweep wrote. */
export interface SweepOutcome {
  csvPath: string;
  jsonPath: string;
  rows: number;
  candidates: number;
  /** Rows taken from the journal of an interrupted run. */
  resumed: number;
}

/** The JSON results file beside a CSV path. */
export function jsonPathFor(csvPath: string): string {
  return /\.csv$/i.test(csvPath) ? csvPath.replace(/\.csv$/i, '.json') : `${csvPath}.json`;
}

/** The journal of a sweep writing `csvPath`. */
export function journalPathFor(csvPath: string): string {
  return `${csvPath}.partial`;
}

/**
 * Runs the tasks of `plan` that an interrupted run's journal lacks, journaling each row as it
 * finishes, then writes the CSV and JSON in (candidate, seed) order and removes the journal. The
 * files are the same bytes whatever the worker count and however often the run was resumed.
 */
export async function runSweep(plan: SweepPlan, opts: RunSweepOptions): Promise<SweepOutcome> {
  const csvPath = opts.output;
  const jsonPath = jsonPathFor(csvPath);
  const journalPath = journalPathFor(csvPath);
  const planned = new Set(plan.tasks.map(rowKey));
  const done = new Map([...readJournal(journalPath, plan.hash, opts.restart === true)].filter(([k]) => planned.has(k)));
  const resumed = done.size;
  const journal = new JournalWriter(journalPath, plan.hash, done.values());
  const total = plan.tasks.length;
  opts.onProgress?.(done.size, total);
  try {
    await runTasks(
      plan.tasks.filter((t) => !done.has(rowKey(t))),
      {
        workers: opts.workers,
        ...(opts.pool !== undefined ? { pool: opts.pool } : {}),
        onRow: (row: SweepRow) => {
          journal.append(row);
          done.set(rowKey(row), row);
          opts.onProgress?.(done.size, total);
        },
      },
    );
  } catch (e) {
    journal.close(false);
    throw e;
  }
  const results = sweepResults(plan, done);
  writeFileSync(csvPath, sweepCsv(results));
  writeFileSync(jsonPath, sweepJson(results));
  journal.close(true);
  return { csvPath, jsonPath, rows: results.rows.length, candidates: plan.candidates.length, resumed };
}

/**
 * The results of a plan from its finished rows (keyed by `candidate/seed`), in (candidate, seed)
 * order whatever order they finished in: the local and the queued sweep write the same bytes.
 */
export function sweepResults(plan: SweepPlan, done: ReadonlyMap<string, SweepRow>): SweepResults {
  const byCandidate = new Map(plan.candidates.map((c) => [c.index, c]));
  return {
    format: 'blis-sweep/1',
    spec: plan.spec,
    spec_hash: plan.hash,
    parameters: plan.parameters,
    metrics: plan.metrics,
    rows: plan.tasks.map((t) => {
      const row = done.get(rowKey(t));
      if (row === undefined) throw new Error(`internal error: no result for candidate ${t.candidate}, seed ${t.seed}`);
      return { candidate: t.candidate, seed: t.seed, parameters: byCandidate.get(t.candidate)?.values ?? {}, metrics: row.metrics, config: t.config };
    }),
  };
}
