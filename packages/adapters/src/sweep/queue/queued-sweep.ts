import { writeFileSync } from 'node:fs';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { type SweepOutcome, jsonPathFor, sweepResults } from '../run-sweep.js';
import { rowKey } from '../sweep-journal.js';
import { sweepCsv, sweepJson } from '../sweep-output.js';
import type { SweepPlan } from '../sweep-plan.js';
import type { SweepRow } from '../sweep-task.js';
import { ACTIVE_SWEEPS_KEY, ANNOUNCE_CHANNEL, QUEUE_PREFIX, type SweepKeys, jobIdOf, sweepKeys } from './queue-keys.js';
import { type QueueRate, type QueuedSweepCounts, queueRate } from './queue-progress.js';
import { type QueueUrl, parseQueueUrl } from './queue-url.js';
import { type ConnectionEvent, checkRedis, openRedis, wakeOnMessages } from './redis-connection.js';
import { shipTask } from './shipped-files.js';
import { settlesWithin, unlessAborted } from './stopping.js';
import type { Wakeup } from './wakeup.js';
import { type QueuedFailure, readFailures, readNewRows, removeSweepKeys } from './sweep-redis-state.js';
import { importModule } from '../../import-module.js';

/** How to run a planned sweep on a Redis queue. */
export interface QueuedSweepOptions {
  /** The CSV results file; the JSON goes beside it, as in the local sweep. */
  output: string;
  /** `redis://HOST:PORT[/DB]`, or its parsed form. */
  queue: string | QueueUrl;
  /** Remove what an earlier run of this sweep left in Redis (results, failures) and start over. */
  restart?: boolean;
  /** Keep the sweep's keys after its results are written (they are removed by default). */
  keepQueue?: boolean;
  /** Attempts per job for errors that may pass (a lost file fetch); a task the simulator refuses fails once. Default 3. */
  attempts?: number;
  /** How often the coordinator reads progress when no worker reports a row, in ms (default 1,000). */
  pollMs?: number;
  onProgress?: (counts: QueuedSweepCounts, rate: QueueRate) => void;
  onConnection?: (e: ConnectionEvent) => void;
  /** Things worth a line on stderr that are not errors (the sweep re-enqueued after Redis lost it). */
  onNotice?: (line: string) => void;
  /**
   * Stops waiting (the jobs stay queued; rerunning the same sweep collects them). It stops at
   * once, even while a command waits for a Redis that is gone: the coordinator holds no job.
   */
  signal?: AbortSignal;
}

/** What a finished queued sweep wrote. */
export interface QueuedSweepOutcome extends SweepOutcome {
  /** The BullMQ queue the jobs went through. */
  queue: string;
}

/** Some jobs failed for good: the sweep writes no results, and keeps its keys for `--status`. */
export class QueuedSweepFailedError extends Error {
  constructor(readonly failures: QueuedFailure[]) {
    super(
      `${failures.length} job(s) failed, so no results were written (rerun with --restart once fixed, or --clean to drop the sweep):\n${failures
        .map((f) => `candidate ${f.candidate}, seed ${f.seed}: ${f.reason}`)
        .join('\n')}`,
    );
    this.name = 'QueuedSweepFailedError';
  }
}

/** The sweep was stopped before it finished; its jobs stay queued. */
export class QueuedSweepStoppedError extends Error {
  /** `lostRedis`: where the Redis is that was not answering when it stopped, if it was not. */
  constructor(
    readonly queue: string,
    readonly lostRedis?: string,
  ) {
    super(
      lostRedis === undefined
        ? `stopped waiting; the jobs of ${queue} stay queued and workers keep running them: rerun the same command to collect the results`
        : `stopped waiting; Redis at ${lostRedis} did not answer, so the jobs of ${queue} stay wherever Redis has them: rerun the same command once it is back to collect the results (what Redis lost is enqueued again)`,
    );
    this.name = 'QueuedSweepStoppedError';
  }
}

const ADD_CHUNK = 500;

/**
 * Enqueues one job per task (job id `c<candidate>-s<seed>`; a job already queued, running or
 * done is not added again), waits while `blis worker`s run them, and writes the same CSV and
 * JSON as the local sweep. Stopping and rerunning resumes: rows already in Redis are kept.
 */
export function runQueuedSweep(plan: SweepPlan, opts: QueuedSweepOptions): Promise<QueuedSweepOutcome> {
  return withSession(plan, opts.queue, (session, keys) => collectSweep(plan, opts, session, keys), opts.onConnection);
}

async function collectSweep(plan: SweepPlan, opts: QueuedSweepOptions, session: Session, keys: SweepKeys): Promise<QueuedSweepOutcome> {
  const { redis, queue } = session;
  // Until the results are written, a stop ends the wait at once, even one on a Redis that is gone.
  const stopped = (): never => {
    throw new QueuedSweepStoppedError(keys.queue, session.answering() ? undefined : session.url.display);
  };
  // Workers announce each row on the sweep's channel: the coordinator reads as they come.
  const news = await unlessAborted(wakeOnMessages(redis, keys.events), opts.signal, stopped);
  try {
    const { rows, failures, doneAtStart } = await unlessAborted(awaitJobs(plan, opts, session, keys, news.wakeup), opts.signal, stopped);
    if (failures.size > 0) throw new QueuedSweepFailedError([...failures.values()].sort((a, b) => a.candidate - b.candidate || a.seed - b.seed));
    const byKey = new Map([...rows.values()].map((r) => [rowKey(r), r]));
    const results = sweepResults(plan, byKey);
    const jsonPath = jsonPathFor(opts.output);
    writeFileSync(opts.output, sweepCsv(results));
    writeFileSync(jsonPath, sweepJson(results));
    // The results are written: a stop now only leaves the sweep's keys behind.
    if (opts.keepQueue !== true)
      await unlessAborted(removeSweepKeys(redis, queue, keys), opts.signal, () => opts.onNotice?.(`stopped before removing ${keys.queue} from Redis; --clean removes it`));
    return { csvPath: opts.output, jsonPath, rows: results.rows.length, candidates: plan.candidates.length, resumed: doneAtStart, queue: keys.queue };
  } finally {
    news.close();
  }
}

/** Enqueues what has no result yet and waits until every job has a row or has failed for good. */
async function awaitJobs(plan: SweepPlan, opts: QueuedSweepOptions, { redis, queue }: Session, keys: SweepKeys, news: Wakeup) {
  const attempts = opts.attempts ?? 3;
  if (opts.restart === true) await removeSweepKeys(redis, queue, keys);
  const planned = new Set(plan.tasks.map(jobIdOf));
  const rows = new Map<string, SweepRow>();
  let offset = await readNewRows(redis, keys, 0, rows);
  let failures = await readFailures(redis, queue, keys, rows, planned);
  const doneAtStart = rows.size + failures.size;
  await enqueue(redis, queue, keys, plan, (id) => rows.has(id) || failures.has(id), attempts);
  const start = Date.now();
  const total = plan.tasks.length;
  for (;;) {
    if ((await redis.exists(keys.info)) === 0) {
      // The sweep is gone from Redis (a server restarted without persistence, or --clean from
      // elsewhere): what has no row here yet is enqueued again, and the done list starts over.
      opts.onNotice?.(`the sweep's state vanished from Redis; enqueueing the ${plan.tasks.length - rows.size} job(s) without a result again`);
      offset = 0;
      await enqueue(redis, queue, keys, plan, (id) => rows.has(id), attempts);
    }
    offset = await readNewRows(redis, keys, offset, rows);
    failures = await readFailures(redis, queue, keys, rows, planned);
    const counts = await countJobs(queue, total, rows, failures);
    // Stopped meanwhile: the caller has reported it, so no more progress.
    if (opts.signal?.aborted === true) throw new QueuedSweepStoppedError(keys.queue);
    opts.onProgress?.(counts, queueRate(counts, doneAtStart, start, Date.now()));
    if (counts.done + counts.failed >= total) return { rows, failures, doneAtStart };
    await news.wait(opts.pollMs ?? 1000, opts.signal);
  }
}

/** What `blis sweep --queue URL --status` prints. */
export interface QueuedSweepStatus extends QueuedSweepCounts {
  queue: string;
  spec_hash: string;
  state: 'not started' | 'running' | 'finished' | 'failed';
  /** BullMQ workers connected to this sweep's queue now. */
  workers: number;
  failures: QueuedFailure[];
}

/** The state of a plan's sweep in Redis, read without changing it. */
export function queuedSweepStatus(plan: SweepPlan, queueUrl: string | QueueUrl): Promise<QueuedSweepStatus> {
  return withSession(plan, queueUrl, async ({ redis, queue }, keys) => {
    const planned = new Set(plan.tasks.map(jobIdOf));
    const rows = new Map<string, SweepRow>();
    await readNewRows(redis, keys, 0, rows);
    const failures = await readFailures(redis, queue, keys, rows, planned);
    const counts = await countJobs(queue, plan.tasks.length, rows, failures);
    const known = (await redis.exists(keys.info)) === 1;
    const settled = counts.done + counts.failed >= counts.total;
    const state = !known ? 'not started' : settled ? (counts.failed > 0 ? 'failed' : 'finished') : 'running';
    return { queue: keys.queue, spec_hash: plan.hash, state, ...counts, workers: await queue.getWorkersCount(), failures: [...failures.values()] };
  });
}

/** Removes a plan's sweep from Redis (its jobs, results, failures and files); true when there was one. */
export function cleanQueuedSweep(plan: SweepPlan, queueUrl: string | QueueUrl): Promise<boolean> {
  return withSession(plan, queueUrl, async ({ redis, queue }, keys) => {
    const existed = (await redis.exists(keys.info)) === 1 || (await redis.sismember(ACTIVE_SWEEPS_KEY, keys.queue)) === 1;
    await removeSweepKeys(redis, queue, keys);
    return existed;
  });
}

/** Checks the URL and the server, opens the plan's sweep, runs `f`, and closes it whatever happens. */
async function withSession<T>(plan: SweepPlan, queueUrl: string | QueueUrl, f: (session: Session, keys: SweepKeys) => Promise<T>, onConnection?: (e: ConnectionEvent) => void): Promise<T> {
  const url = typeof queueUrl === 'string' ? parseQueueUrl(queueUrl) : queueUrl;
  await checkRedis(url);
  const keys = sweepKeys(plan.hash);
  const session = await openSession(url, keys, onConnection);
  try {
    return await f(session, keys);
  } finally {
    await session.close();
  }
}

interface Session {
  url: QueueUrl;
  redis: Redis;
  queue: Queue;
  /** Whether Redis answers now. */
  answering(): boolean;
  close(): Promise<void>;
}

/** How long closing a session's queue may take before its connections are cut anyway (Redis may be gone). */
const CLOSE_WAIT_MS = 2000;

async function openSession(url: QueueUrl, keys: SweepKeys, onConnection?: (e: ConnectionEvent) => void): Promise<Session> {
  const connections = await openRedis(url, onConnection);
  const { redis } = connections;
  const { Queue } = await importModule<typeof import('bullmq')>('bullmq');
  const queue = new Queue(keys.queue, { connection: redis, prefix: QUEUE_PREFIX });
  // BullMQ reports connection trouble as 'error' events; the connection's own retry reporting says it once.
  queue.on('error', () => {});
  return {
    url,
    redis,
    queue,
    answering: connections.answering,
    close: async () => {
      await settlesWithin(queue.close(), CLOSE_WAIT_MS);
      // Every connection, the pub/sub one of a sweep stopped mid-wait too.
      connections.disconnectAll();
    },
  };
}

async function enqueue(redis: Redis, queue: Queue, keys: SweepKeys, plan: SweepPlan, settled: (id: string) => boolean, attempts: number): Promise<void> {
  const contents = new Map<string, Buffer>();
  const jobs = plan.tasks
    .filter((t) => !settled(jobIdOf(t)))
    .map((t) => ({
      name: 'sweep-task',
      data: shipTask(t, contents),
      // Results live in the sweep's own hash, so a completed job need not stay; a failed one stays for its reason.
      opts: { jobId: jobIdOf(t), attempts, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: false },
    }));
  for (const [sha, bytes] of contents) await redis.set(`${keys.filePrefix}${sha}`, bytes, 'NX');
  await redis.hset(keys.info, { spec_hash: plan.hash, total: String(plan.tasks.length), metrics: plan.metrics.join(',') });
  await redis.sadd(ACTIVE_SWEEPS_KEY, keys.queue);
  await redis.publish(ANNOUNCE_CHANNEL, keys.queue);
  for (let i = 0; i < jobs.length; i += ADD_CHUNK) await queue.addBulk(jobs.slice(i, i + ADD_CHUNK));
}

async function countJobs(queue: Queue, total: number, rows: ReadonlyMap<string, SweepRow>, failures: ReadonlyMap<string, QueuedFailure>): Promise<QueuedSweepCounts> {
  const c = await queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active');
  const done = rows.size;
  const failed = failures.size;
  const running = Math.min(c.active ?? 0, total - done - failed);
  return { total, done, failed, queued: Math.max(0, Math.min((c.waiting ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0), total - done - failed - running)), running };
}
