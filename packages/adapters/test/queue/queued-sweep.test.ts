import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { runSweep } from '../../src/sweep/run-sweep.js';
import { type SweepPlan, planSweep } from '../../src/sweep/sweep-plan.js';
import { loadSweepSpec } from '../../src/sweep/sweep-spec-load.js';
import { QUEUE_PREFIX, sweepKeys } from '../../src/sweep/queue/queue-keys.js';
import { QueuedSweepFailedError, QueuedSweepStoppedError, cleanQueuedSweep, queuedSweepStatus, runQueuedSweep } from '../../src/sweep/queue/queued-sweep.js';
import { type QueueWorkerSummary, runQueueWorker } from '../../src/sweep/queue/queue-worker.js';
import { redisForTests } from '../../../../tools/test-support/redis-fixture.js';

// Queued sweeps against a real redis-server: the same bytes as the local sweep whatever the
// number of workers, stop and resume, a failing candidate recorded once, status and clean-up.

const fixture = await redisForTests(1);
const url = fixture.redis?.url ?? '';
const tmp = mkdtempSync(join(tmpdir(), 'blis-queued-sweep-'));
afterAll(async () => fixture.redis?.stop());

function specFile(name: string, requests: number, extra = ''): string {
  const file = join(tmp, name);
  writeFileSync(
    file,
    `base:
  latencyModel: blackbox
  routing: {policy: weighted, scorers: [{name: queue-depth, weight: 1}, {name: kv-utilization, weight: 1}]}
  workload: {kind: synthetic, numRequests: ${requests}, rate: 40}
seeds: [1, 2]
parameters:
  numInstances: [1, 2]
  routing.scorers.queue-depth: [0.5, 2, 4]
metrics: [ttft_p99_ms, e2e_mean_ms, responses_per_sec, load_fairness.jain_index]
${extra}`,
  );
  return file;
}

const bytes = (csv: string) => [readFileSync(csv, 'utf8'), readFileSync(csv.replace(/\.csv$/, '.json'), 'utf8')];

/** `n` in-process workers (each its own BullMQ connections and thread pool), stopped by the returned function. */
function startWorkers(n: number, extra: { lockDurationMs?: number } = {}): () => Promise<QueueWorkerSummary[]> {
  const stop = new AbortController();
  const running = Array.from({ length: n }, () => runQueueWorker({ queue: url, concurrency: 1, discoverMs: 50, signal: stop.signal, ...extra }));
  return async () => {
    stop.abort();
    return Promise.all(running);
  };
}

async function keysInDb(): Promise<string[]> {
  const r = new Redis(url);
  try {
    return await r.keys('*');
  } finally {
    r.disconnect();
  }
}

describe.skipIf(fixture.skip !== undefined)('blis sweep --queue (library)', () => {
  const plan = planSweep(loadSweepSpec(specFile('small.yaml', 150)));
  const local = join(tmp, 'local.csv');

  it('writes the bytes of the local sweep with 1 worker and with 3, and leaves nothing in Redis', async () => {
    await runSweep(plan, { output: local, workers: 1 });
    for (const n of [1, 3]) {
      const stop = startWorkers(n);
      const out = join(tmp, `queued-${n}.csv`);
      const outcome = await runQueuedSweep(plan, { output: out, queue: url, pollMs: 50 });
      const summaries = await stop();
      expect(bytes(out)).toEqual(bytes(local));
      expect(outcome).toMatchObject({ rows: 12, candidates: 6, resumed: 0, queue: sweepKeys(plan.hash).queue });
      // Every job ran exactly once here (no worker died), spread over the workers.
      expect(summaries.reduce((s, w) => s + w.jobs, 0)).toBe(12);
      expect(await keysInDb()).toEqual([]);
    }
  });

  it('stops without losing work and resumes from what Redis holds', async () => {
    const stopWorkers = startWorkers(1);
    const stop = new AbortController();
    const out = join(tmp, 'resumed.csv');
    await expect(
      runQueuedSweep(plan, { output: out, queue: url, pollMs: 50, signal: stop.signal, onProgress: (c) => c.done >= 3 && stop.abort() }),
    ).rejects.toBeInstanceOf(QueuedSweepStoppedError);
    const mid = await queuedSweepStatus(plan, url);
    expect(mid.state).toBe('running');
    expect(mid.done).toBeGreaterThanOrEqual(3);
    const outcome = await runQueuedSweep(plan, { output: out, queue: url, pollMs: 50 });
    const [summary] = await stopWorkers();
    expect(outcome.resumed).toBeGreaterThanOrEqual(3);
    expect(bytes(out)).toEqual(bytes(local));
    // Rows found in Redis were not run again: 12 jobs in all across both coordinator runs.
    expect(summary.jobs).toBe(12);
  });

  it('keeps the keys with keepQueue, reports the finished sweep, and cleans it', async () => {
    const stop = startWorkers(2);
    await runQueuedSweep(plan, { output: join(tmp, 'kept.csv'), queue: url, pollMs: 50, keepQueue: true });
    await stop();
    const status = await queuedSweepStatus(plan, url);
    expect(status).toMatchObject({ state: 'finished', total: 12, done: 12, failed: 0, queued: 0, running: 0, workers: 0, failures: [] });
    // A second run of a finished, kept sweep reads its rows and runs nothing.
    const again = await runQueuedSweep(plan, { output: join(tmp, 'again.csv'), queue: url, pollMs: 50 });
    expect(again.resumed).toBe(12);
    expect(bytes(join(tmp, 'again.csv'))).toEqual(bytes(local));
    expect(await keysInDb()).toEqual([]);
    expect(await cleanQueuedSweep(plan, url)).toBe(false);
    expect((await queuedSweepStatus(plan, url)).state).toBe('not started');
  });

  it('records a task that fails as failed once, without retries, and says so on every rerun', async () => {
    const module = join(tmp, 'throwing-router.mjs');
    writeFileSync(module, 'export default () => ({ route() { throw new Error("boom from the candidate"); } });\n');
    // Candidate 2 with seed 2 uses a routing module that throws at its first decision.
    const bad: SweepPlan = { ...plan, hash: `${plan.hash.slice(0, 60)}bad0`, tasks: plan.tasks.map((t) => (t.candidate === 2 && t.seed === 2 ? { ...t, routingModule: module } : t)) };
    const stop = startWorkers(1);
    const run = () => runQueuedSweep(bad, { output: join(tmp, 'bad.csv'), queue: url, pollMs: 50 });
    const err = await run().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueuedSweepFailedError);
    expect((err as QueuedSweepFailedError).failures).toEqual([{ candidate: 2, seed: 2, reason: expect.stringContaining('boom from the candidate') }]);
    const again = await run().catch((e: unknown) => e);
    expect((again as QueuedSweepFailedError).failures).toHaveLength(1);
    const [summary] = await stop();
    // 11 good jobs once each, the bad one once: neither BullMQ nor the rerun retried it.
    expect(summary).toMatchObject({ jobs: 11, failed: 1 });
    const queue = new Queue(sweepKeys(bad.hash).queue, { connection: { url }, prefix: QUEUE_PREFIX });
    const job = await queue.getJob('c2-s2');
    expect(job?.attemptsMade).toBe(1);
    await queue.close();
    const status = await queuedSweepStatus(bad, url);
    expect(status).toMatchObject({ state: 'failed', done: 11, failed: 1 });
    expect(await cleanQueuedSweep(bad, url)).toBe(true);
    expect(await keysInDb()).toEqual([]);
  });
});
