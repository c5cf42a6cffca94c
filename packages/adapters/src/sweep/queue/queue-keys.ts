import type { SweepTask } from '../sweep-task.js';

/**
 * Where a queued sweep lives in Redis. BullMQ keeps its jobs under `blis:sweep-<hash>:*`; what
 * the sweep adds (results, failures, shipped files, its description) lives under
 * `blis-sweep:<hash>:*`, apart from BullMQ's own names; workers find sweeps in one set.
 */
export const QUEUE_PREFIX = 'blis';

/** The set of queue names workers serve: a coordinator adds its sweep, clean-up removes it. */
export const ACTIVE_SWEEPS_KEY = 'blis-sweep:active';

/** Where a coordinator announces a new sweep, so idle workers start on it at once. */
export const ANNOUNCE_CHANNEL = 'blis-sweep:announce';

/** The keys of one sweep, named by its plan hash (the same spec and files give the same sweep). */
export interface SweepKeys {
  /** BullMQ queue name. */
  queue: string;
  /** Hash: job id -> result row (JSON). Written once per id, whatever the retries. */
  rows: string;
  /** List of job ids in the order their rows were written (with repeats after retries): lets the coordinator read only what is new. */
  done: string;
  /** Hash: job id -> why the job failed for good. */
  failed: string;
  /** Hash: what `--status` reports without the spec (total, hash, start time). */
  info: string;
  /** Prefix of the shipped files' keys (`<prefix><sha256>`). */
  filePrefix: string;
  /** Pub/sub channel on which workers announce each row, so the coordinator need not poll fast. */
  events: string;
}

/** The keys of the sweep of a plan hash. */
export function sweepKeys(planHash: string): SweepKeys {
  return keysOfId(planHash.slice(0, 16));
}

/** The keys of the sweep whose BullMQ queue is `queue` (what a worker knows of a job). */
export function sweepKeysOfQueue(queue: string): SweepKeys {
  return keysOfId(queue.replace(/^sweep-/, ''));
}

function keysOfId(id: string): SweepKeys {
  const own = `blis-sweep:${id}`;
  return { queue: `sweep-${id}`, rows: `${own}:rows`, done: `${own}:done`, failed: `${own}:failed`, info: `${own}:info`, filePrefix: `${own}:file:`, events: `${own}:events` };
}

/** A task's job id: its candidate and seed, so a re-enqueued task is the same job. */
export function jobIdOf(task: Pick<SweepTask, 'candidate' | 'seed'>): string {
  return `c${task.candidate}-s${task.seed}`;
}
