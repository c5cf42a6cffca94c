import type { SweepRow, SweepTask } from '../sweep-task.js';
import { sweepWorkerUrl } from '../worker-file.js';
import { importModule } from '../../import-module.js';

/** Worker threads that run sweep tasks, kept for the life of a `blis worker`. */
export interface TaskPool {
  run(task: SweepTask): Promise<SweepRow>;
  destroy(): Promise<void>;
}

/**
 * A tinypool of `threads` worker threads running the local sweep's worker module. Simulations
 * never run on the main thread: it must stay free to renew the jobs' locks in Redis, or a long
 * simulation would look like a dead worker and be run again elsewhere.
 */
export async function createTaskPool(threads: number): Promise<TaskPool> {
  const { Tinypool } = await importModule<typeof import('tinypool')>('tinypool');
  const pool = new Tinypool({ filename: sweepWorkerUrl().href, minThreads: threads, maxThreads: threads, idleTimeout: 0 });
  return {
    run: (task) => pool.run(task) as Promise<SweepRow>,
    destroy: () => pool.destroy(),
  };
}
