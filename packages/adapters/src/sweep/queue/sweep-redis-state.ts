import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { SweepRow } from '../sweep-task.js';
import { ACTIVE_SWEEPS_KEY, type SweepKeys } from './queue-keys.js';

/** A job that failed for good: which task, and why. */
export interface QueuedFailure {
  candidate: number;
  seed: number;
  reason: string;
}

/**
 * Reads the rows written since `offset` of the done list into `rows` (keyed by job id) and
 * returns the new offset. A job retried after its worker died can appear twice in the list; its
 * row is the same, stored once in the hash.
 */
export async function readNewRows(redis: Redis, keys: SweepKeys, offset: number, rows: Map<string, SweepRow>): Promise<number> {
  const ids = await redis.lrange(keys.done, offset, -1);
  const fresh = [...new Set(ids)].filter((id) => !rows.has(id));
  for (let i = 0; i < fresh.length; i += 1000) {
    const part = fresh.slice(i, i + 1000);
    const values = await redis.hmget(keys.rows, ...part);
    part.forEach((id, j) => {
      const v = values[j];
      if (v !== null) rows.set(id, JSON.parse(v) as SweepRow);
    });
  }
  return offset + ids.length;
}

/**
 * Every job that failed for good: those the worker recorded (a task the simulator refused) and
 * those BullMQ gave up on (stalled or errored more often than their attempts allow), except
 * jobs that have a row anyway (another worker finished them). BullMQ's reasons are copied into
 * the sweep's own record so that `--status` and a resumed coordinator see the same list.
 */
export async function readFailures(redis: Redis, queue: Queue, keys: SweepKeys, rows: ReadonlyMap<string, SweepRow>, planned: ReadonlySet<string>): Promise<Map<string, QueuedFailure>> {
  const recorded = await redis.hgetall(keys.failed);
  const bullFailed = await queue.getFailedCount();
  if (bullFailed > Object.keys(recorded).length) {
    for (const job of await queue.getFailed(0, -1)) {
      if (job.id === undefined || recorded[job.id] !== undefined) continue;
      const task = (job.data as { task?: { candidate?: number; seed?: number } }).task;
      const failure: QueuedFailure = { candidate: task?.candidate ?? -1, seed: task?.seed ?? 0, reason: job.failedReason ?? 'failed' };
      recorded[job.id] = JSON.stringify(failure);
      await redis.hset(keys.failed, job.id, recorded[job.id]);
    }
  }
  const out = new Map<string, QueuedFailure>();
  for (const [id, text] of Object.entries(recorded)) if (planned.has(id) && !rows.has(id)) out.set(id, JSON.parse(text) as QueuedFailure);
  return out;
}

/** Removes everything a sweep keeps in Redis: its BullMQ queue, results, failures, files, and its entry in the active set. */
export async function removeSweepKeys(redis: Redis, queue: Queue, keys: SweepKeys): Promise<void> {
  await redis.srem(ACTIVE_SWEEPS_KEY, keys.queue);
  await queue.obliterate({ force: true });
  const files: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${keys.filePrefix}*`, 'COUNT', 1000);
    cursor = next;
    files.push(...found);
  } while (cursor !== '0');
  await redis.del(keys.rows, keys.done, keys.failed, keys.info, ...files);
}
