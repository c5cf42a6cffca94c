import { availableParallelism } from 'node:os';
import { type SweepRow, type SweepTask, runSweepTask } from './sweep-task.js';
import { sweepWorkerUrl } from './worker-file.js';
import { importModule } from '../import-module.js';

/** How to run a batch of tasks. */
export interface RunTasksOptions {
  /** Worker threads; 1 runs inline on this thread. Default: the machine's available parallelism. */
  workers?: number;
  /** Called as each task finishes, in completion order (which varies with the worker count). */
  onRow?: (row: SweepRow) => void;
  /** Threads started earlier ({@link startSweepPool}) to use instead of starting a pool; the caller destroys them. */
  pool?: SweepPool;
}

/** Worker threads that run sweep tasks, started before the tasks are known. */
export interface SweepPool {
  readonly threads: number;
  run(task: SweepTask): Promise<SweepRow>;
  destroy(): Promise<void>;
}

/**
 * Starts `threads` worker threads now. A thread takes about half a second to load the simulator;
 * a caller that starts them before planning (reading the spec, validating every candidate) has
 * them ready when the tasks are, instead of paying that time after planning.
 */
export async function startSweepPool(threads: number): Promise<SweepPool> {
  // tinypool is ESM-only: load it when a pool is wanted (the CommonJS build imports it this way too).
  const { Tinypool } = await importModule<typeof import('tinypool')>('tinypool');
  const pool = new Tinypool({ filename: sweepWorkerUrl().href, minThreads: threads, maxThreads: threads, idleTimeout: 0 });
  return { threads, run: (task) => pool.run(task) as Promise<SweepRow>, destroy: () => pool.destroy() };
}

/** The default worker count: one per core the process may use. */
export function defaultWorkers(): number {
  return availableParallelism();
}

/**
 * Runs every task and returns the rows in the tasks' order, whatever order they finished in.
 * With more than one worker the tasks go to a tinypool of worker threads; each task is a whole
 * simulation, so results do not depend on where it ran.
 */
export async function runTasks(tasks: readonly SweepTask[], opts: RunTasksOptions = {}): Promise<SweepRow[]> {
  const workers = Math.max(1, Math.min(opts.workers ?? defaultWorkers(), tasks.length));
  const rows: SweepRow[] = new Array(tasks.length);
  if (workers === 1) {
    for (let i = 0; i < tasks.length; i++) {
      rows[i] = await runTaskNamed(tasks[i], () => runSweepTask(tasks[i]));
      opts.onRow?.(rows[i]);
      // Let signals and stderr writes through between simulations.
      await new Promise((r) => setImmediate(r));
    }
    return rows;
  }
  const pool = opts.pool ?? (await startSweepPool(workers));
  try {
    await Promise.all(
      tasks.map(async (t, i) => {
        rows[i] = await runTaskNamed(t, () => pool.run(t));
        opts.onRow?.(rows[i]);
      }),
    );
  } finally {
    if (opts.pool === undefined) await pool.destroy();
  }
  return rows;
}

/** A task's failure names the task: the simulation's own message follows. */
async function runTaskNamed(t: SweepTask, run: () => Promise<SweepRow>): Promise<SweepRow> {
  try {
    return await run();
  } catch (e) {
    const err = e as Error;
    err.message = `candidate ${t.candidate}, seed ${t.seed}: ${err.message}`;
    throw err;
  }
}
