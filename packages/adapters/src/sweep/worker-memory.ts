import type { MemoryEstimate, MemoryLimit } from '@blis/cluster';
import { formatBytes } from '@blis/cluster/internal';
import type { SweepIssue } from './sweep-spec-error.js';

/**
 * The memory a sweep or comparison may use and how many simulations it runs at once: each
 * worker holds one run, so the largest run's estimate times the workers must fit.
 */
export interface WorkerMemory {
  /**
   * The machine's memory (or BLIS_MEMORY_LIMIT), and whose it is, as `blis run` compares with;
   * its V8 heap limit is compared with one run's heap (each worker thread has a heap of its own).
   */
  limit: MemoryLimit;
  /** Worker threads (1 runs inline). */
  workers: number;
}

/** The largest run of a plan, as the sweep names it. */
export interface LargestRun {
  where: string;
  estimate: MemoryEstimate;
}

/**
 * Refuses, before any worker starts, a plan whose largest run times the runs at once exceeds the
 * memory: workers each hold a run of the same plan, any of which may be the largest. The
 * process (Node, modules, catalogue) is counted once, as the worker threads share it.
 */
export function workerMemoryIssue(largest: LargestRun | undefined, tasks: number, memory: WorkerMemory | undefined): SweepIssue | undefined {
  if (largest === undefined || memory === undefined) return undefined;
  const atOnce = Math.max(1, Math.min(memory.workers, tasks));
  const e = largest.estimate;
  const perRun = e.totalBytes - e.baselineBytes;
  const need = e.baselineBytes + atOnce * perRun;
  if (need <= memory.limit.bytes) return undefined;
  return {
    where: largest.where,
    expected: `runs that fit in ${formatBytes(memory.limit.bytes)} with ${atOnce} at once (${memory.limit.what}; fewer --workers need less)`,
    found: `an estimated ${formatBytes(need)}: ${atOnce} × ${formatBytes(perRun)} for its runs and ${formatBytes(e.baselineBytes)} for the process (one run: ${e.summary})`,
  };
}
