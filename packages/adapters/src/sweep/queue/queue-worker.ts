import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job, Worker } from 'bullmq';
import { defaultWorkers } from '../sweep-runner.js';
import { ACTIVE_SWEEPS_KEY, ANNOUNCE_CHANNEL, QUEUE_PREFIX, jobIdOf, sweepKeysOfQueue } from './queue-keys.js';
import { type QueueUrl, parseQueueUrl } from './queue-url.js';
import { type ConnectionEvent, checkRedis, openRedis, wakeOnMessages } from './redis-connection.js';
import { unlessAborted } from './stopping.js';
import { type QueuedTask, localTask } from './shipped-files.js';
import type { QueuedFailure } from './sweep-redis-state.js';
import { createTaskPool } from './task-pool.js';
import { Wakeup } from './wakeup.js';
import { importModule } from '../../import-module.js';

/** How long the jobs a stopping worker holds may take to finish, by default. */
export const DEFAULT_STOP_TIMEOUT_MS = 10_000;

/** How a `blis worker` runs. */
export interface QueueWorkerOptions {
  /** `redis://HOST:PORT[/DB]`, or its parsed form. */
  queue: string | QueueUrl;
  /** Simulations at once (worker threads); default: the machine's available parallelism. */
  concurrency?: number;
  /**
   * How long a job's lock lasts without renewal, in ms (default 30,000). A worker that dies
   * holding a job gives it back after about this long: another worker's stalled-job check
   * moves it back to the queue.
   */
  lockDurationMs?: number;
  /** Times a job may be given back by dead workers before it fails for good (default 2). */
  maxStalled?: number;
  /** Stop after this long with no job to run (default: run until stopped). */
  maxIdleMs?: number;
  /** How often to look for new sweeps, in ms (default 1,000). */
  discoverMs?: number;
  /** Lines for stderr: which sweeps it serves, each job's end. */
  onLog?: (line: string) => void;
  onConnection?: (e: ConnectionEvent) => void;
  /** Stops taking jobs; the jobs it holds finish first, for up to `stopTimeoutMs`. */
  signal?: AbortSignal;
  /**
   * How long the jobs it holds may take to finish once it stops, in ms (default 10,000). Past
   * it the worker closes its connections without waiting for Redis, and counts those jobs as
   * abandoned: Redis gives them to another worker when their locks expire.
   */
  stopTimeoutMs?: number;
}

/** What a worker did before it stopped. */
export interface QueueWorkerSummary {
  /** Jobs it simulated and wrote a row for. */
  jobs: number;
  /** Jobs whose task the simulator refused. */
  failed: number;
  /** Jobs that already had a row (a duplicate), completed without running. */
  skipped: number;
  /** Jobs it still held when `stopTimeoutMs` ran out (unfinished, or finished but not recorded in Redis). */
  abandoned: number;
  /** Whether Redis was not answering when it stopped (a lost connection, still retrying). */
  redisLost: boolean;
}

/**
 * Serves every sweep listed in Redis: one BullMQ worker per sweep queue, all feeding one pool of
 * `concurrency` threads. A task the simulator refuses is recorded as the job's failure and not
 * retried (the same task fails the same way anywhere). A row is written to the sweep's result
 * hash before the job completes; a job that finds its row there (it came twice) is not run.
 * Stopping takes at most `stopTimeoutMs` (plus closing the threads), whether Redis answers or not.
 */
export async function runQueueWorker(opts: QueueWorkerOptions): Promise<QueueWorkerSummary> {
  const url = typeof opts.queue === 'string' ? parseQueueUrl(opts.queue) : opts.queue;
  await checkRedis(url);
  const concurrency = Math.max(1, opts.concurrency ?? defaultWorkers());
  const log = opts.onLog ?? (() => {});
  const connections = await openRedis(url, opts.onConnection);
  const { redis } = connections;
  const { Worker, UnrecoverableError } = await importModule<typeof import('bullmq')>('bullmq');
  const pool = await createTaskPool(concurrency);
  const filesDir = mkdtempSync(join(tmpdir(), 'blis-worker-'));
  log(`${concurrency} thread(s) on ${url.display}`);
  const name = `blis-worker@${hostname()}:${process.pid}`;
  const workers = new Map<string, Worker>();
  // Per queue, the jobs held from the start of their run until BullMQ has recorded their end in
  // Redis: what a stop waits for, and what it abandons when that takes too long.
  const held = new Map<string, Set<Job>>();
  const released = new Wakeup();
  const summary: QueueWorkerSummary = { jobs: 0, failed: 0, skipped: 0, abandoned: 0, redisLost: false };
  let running = 0;
  let idleSince = Date.now();
  let stopping = false;
  let abandoning = false;

  const runJob = async (job: Job<QueuedTask>): Promise<void> => {
    running++;
    held.get(job.queueName)?.add(job);
    try {
      const keys = sweepKeysOfQueue(job.queueName);
      const task = await localTask(job.data, filesDir, (sha) => redis.getBuffer(`${keys.filePrefix}${sha}`));
      const id = job.id ?? jobIdOf(task);
      // A job can come twice: re-enqueued by a resuming coordinator just after it finished, or
      // given back after its worker wrote the row and died before completing it. The row is
      // there: nothing to run, nothing to write.
      if ((await redis.hexists(keys.rows, id)) === 1) {
        summary.skipped++;
        return;
      }
      let row: unknown;
      try {
        row = await pool.run(task);
      } catch (e) {
        // The stop destroyed the threads under an abandoned job: the task did not fail.
        if (abandoning) throw e;
        const failure: QueuedFailure = { candidate: task.candidate, seed: task.seed, reason: (e as Error).message };
        await redis.multi().hset(keys.failed, id, JSON.stringify(failure)).publish(keys.events, id).exec();
        summary.failed++;
        log(`${job.queueName} ${id}: failed: ${failure.reason.split('\n')[0]}`);
        throw new UnrecoverableError(failure.reason);
      }
      await redis.multi().hset(keys.rows, id, JSON.stringify(row)).rpush(keys.done, id).publish(keys.events, id).exec();
      summary.jobs++;
    } finally {
      running--;
      idleSince = Date.now();
    }
  };

  const serve = (queueName: string) => {
    const w = new Worker<QueuedTask>(queueName, runJob, {
      connection: redis,
      prefix: QUEUE_PREFIX,
      concurrency,
      name,
      lockDuration: opts.lockDurationMs ?? 30_000,
      stalledInterval: opts.lockDurationMs ?? 30_000,
      maxStalledCount: opts.maxStalled ?? 2,
    });
    const jobs = new Set<Job>();
    const release = (job: Job | undefined) => {
      if (job !== undefined && jobs.delete(job)) released.wake();
    };
    w.on('completed', release);
    w.on('failed', release);
    w.on('error', () => {}); // connection trouble is reported once, by the connection
    held.set(queueName, jobs);
    workers.set(queueName, w);
    log(`serving ${queueName}`);
  };

  // New sweeps are announced on a channel, so an idle worker starts on one at once; the set is
  // still read every `discoverMs`, for sweeps announced while this worker was away.
  const discover = async () => {
    const news = await wakeOnMessages(redis, ANNOUNCE_CHANNEL);
    for (;;) {
      const active = new Set(await redis.smembers(ACTIVE_SWEEPS_KEY));
      if (stopping) return;
      for (const q of active) if (!workers.has(q)) serve(q);
      for (const [q, w] of workers)
        if (!active.has(q)) {
          // Its results are written, or it was removed: a job of it still held here is a
          // duplicate or has nowhere to go, so the close waits for nothing.
          workers.delete(q);
          held.delete(q);
          void w.close(true).catch(() => {});
          log(`${q} finished or removed`);
        }
      if (opts.signal?.aborted === true) return;
      if (opts.maxIdleMs !== undefined && running === 0 && Date.now() - idleSince >= opts.maxIdleMs) return;
      await news.wakeup.wait(opts.discoverMs ?? 1000, opts.signal);
    }
  };

  // --max-idle holds while Redis is away too: the loop then waits on a command that is only
  // answered once the server is back, so the idle time is watched beside it, not in it.
  const idle = new AbortController();
  const maxIdleMs = opts.maxIdleMs;
  const idleWatch =
    maxIdleMs === undefined
      ? undefined
      : setInterval(
          () => {
            if (running === 0 && Date.now() - idleSince >= maxIdleMs) idle.abort();
          },
          Math.min(1000, Math.max(10, maxIdleMs / 4)),
        );
  const stop = opts.signal === undefined ? idle.signal : AbortSignal.any([opts.signal, idle.signal]);
  try {
    // The loop may be waiting on a Redis that is gone: a stop does not wait for it.
    await unlessAborted(discover(), stop, () => undefined);
  } finally {
    if (idleWatch !== undefined) clearInterval(idleWatch);
    stopping = true;
    // No new jobs; the held ones run on, and their ends are recorded, until the deadline.
    for (const w of workers.values()) void w.pause(true).catch(() => {});
    const heldCount = () => [...held.values()].reduce((n, jobs) => n + jobs.size, 0);
    const deadline = Date.now() + (opts.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS);
    while (heldCount() > 0 && Date.now() < deadline) await released.wait(deadline - Date.now());
    summary.abandoned = heldCount();
    summary.redisLost = !connections.answering();
    abandoning = true;
    // A forced close waits neither for the held jobs nor for Redis (a graceful one could do
    // both forever); every connection then ends, BullMQ's own too.
    await Promise.all([...workers.values()].map((w) => w.close(true).catch(() => {})));
    connections.disconnectAll();
    await pool.destroy();
    rmSync(filesDir, { recursive: true, force: true });
  }
  return summary;
}
