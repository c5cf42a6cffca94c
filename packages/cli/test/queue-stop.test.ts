import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSweepSpec, planSweep } from '@blis/adapters';
import { ACTIVE_SWEEPS_KEY, QUEUE_PREFIX, sweepKeys } from '@blis/adapters/internal';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { ownRedisOrSkip, spawnRedis } from '../../../tools/test-support/redis-fixture.js';
import { type BlisProcess, exitWithin, startBlis } from './blis-process.js';

// SIGTERM, as Kubernetes, systemd and Docker stop a process (then kill it after a grace period),
// sent to `blis worker` and `blis sweep --queue` whose Redis is gone or whose jobs outlast
// --stop-timeout. Before the deadline existed, such a process waited for ever for a Redis that
// would not come back. Each test runs its own redis-server, since it kills it. The bounds on the
// exits catch a hang; they say nothing about speed.

const skip = ownRedisOrSkip();
const tmp = mkdtempSync(join(tmpdir(), 'blis-queue-stop-'));
// Jobs of a million requests: each outlasts a test by far, so a worker always holds one.
const spec = join(tmp, 'long.yaml');
writeFileSync(
  spec,
  `base:
  latencyModel: blackbox
  workload: {kind: synthetic, numRequests: 1000000, rate: 40}
seeds: [1, 2]
parameters:
  numInstances: [1, 2]
metrics: [ttft_p99_ms]
`,
);
const keys = sweepKeys(planSweep(loadSweepSpec(spec)).hash);
/** Beyond a process's own deadline: exiting later than this is a hang. */
const HANG_MS = 20_000;

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const f of cleanups.splice(0)) await f();
});

function start(args: readonly string[]): BlisProcess {
  const p = startBlis(args);
  children.push(p.child);
  return p;
}

async function until(what: string, ok: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; !(await ok()); i++) {
    if (i > 600) throw new Error(`waited 30 s for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A redis-server of the test's own, and a client to watch it (closed before the server is killed). */
async function ownRedis() {
  const server = await spawnRedis();
  const url = `redis://127.0.0.1:${server.port}`;
  const admin = new Redis(url);
  cleanups.push(async () => {
    admin.disconnect();
    if (server.child.exitCode === null && server.child.signalCode === null) await server.stop();
  });
  const kill = async () => {
    admin.disconnect();
    const gone = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGKILL');
    await gone;
  };
  return { url, admin, kill };
}

/** A coordinator that enqueued the long sweep, and a worker holding one of its jobs. */
async function workerHoldingAJob(url: string, admin: Redis, workerArgs: readonly string[]) {
  start(['sweep', spec, '--output', join(tmp, 'never.csv'), '--queue', url]);
  const worker = start(['worker', '--queue', url, '--concurrency', '1', ...workerArgs]);
  await until('the worker to hold a job', async () => (await admin.keys(`${QUEUE_PREFIX}:${keys.queue}:*:lock`)).length === 1);
  return worker;
}

describe.skipIf(skip !== undefined)('SIGTERM stops a queue process within a bounded time', () => {
  it('blis worker holding a job whose Redis is gone: stops after --stop-timeout, exit 1, the abandoned job on stderr', async () => {
    const redis = await ownRedis();
    const worker = await workerHoldingAJob(redis.url, redis.admin, ['--stop-timeout', '1']);
    await redis.kill();
    await until('the worker to see the connection lost', () => worker.stderr().includes('lost the connection'));
    worker.child.kill('SIGTERM');
    expect(await exitWithin(worker, 1000 + HANG_MS), worker.stderr()).toBe(1);
    expect(worker.stdout()).toBe('');
    expect(worker.stderr()).toMatch(
      /^blis: Redis at redis:\/\/127\.0\.0\.1:\d+ did not answer; the worker stopped after 1 s \(--stop-timeout\) with 1 job\(s\) abandoned \(Redis gives them to another worker when their locks expire, after --lock-duration\)$/m,
    );
  });

  it('blis worker holding no job whose Redis is gone: stops, exit 0, saying Redis did not answer', async () => {
    const redis = await ownRedis();
    const worker = start(['worker', '--queue', redis.url, '--concurrency', '1']);
    await until('the worker to connect', () => worker.stderr().includes('thread(s) on'));
    await redis.kill();
    await until('the worker to see the connection lost', () => worker.stderr().includes('lost the connection'));
    worker.child.kill('SIGTERM');
    expect(await exitWithin(worker, 10_000 + HANG_MS), worker.stderr()).toBe(0);
    expect(worker.stderr()).toMatch(/^blis worker: Redis at redis:\/\/127\.0\.0\.1:\d+ did not answer; stopped without it, holding no job$/m);
  });

  it('blis worker whose job outlasts --stop-timeout: stops anyway, exit 1, and the job is given back, not failed', async () => {
    const redis = await ownRedis();
    const worker = await workerHoldingAJob(redis.url, redis.admin, ['--stop-timeout', '0.5']);
    worker.child.kill('SIGTERM');
    expect(await exitWithin(worker, 500 + HANG_MS), worker.stderr()).toBe(1);
    expect(worker.stderr()).toMatch(/^blis: 1 job\(s\) still running after 0\.5 s \(--stop-timeout\); the worker stopped with them abandoned \(Redis gives them/m);
    // Its lock runs out in Redis, and then another worker's stalled-job check gives it back.
    expect(await redis.admin.hlen(keys.failed)).toBe(0);
    expect(await redis.admin.zcard(`${QUEUE_PREFIX}:${keys.queue}:failed`)).toBe(0);
    expect(await redis.admin.keys(`${QUEUE_PREFIX}:${keys.queue}:*:lock`)).toHaveLength(1);
  });

  it('blis sweep --queue whose Redis is gone: stops waiting, exit 130, saying Redis did not answer', async () => {
    const redis = await ownRedis();
    const coordinator = start(['sweep', spec, '--output', join(tmp, 'never.csv'), '--queue', redis.url]);
    await until('the sweep to be enqueued', async () => (await redis.admin.sismember(ACTIVE_SWEEPS_KEY, keys.queue)) === 1 && (await redis.admin.llen(`${QUEUE_PREFIX}:${keys.queue}:wait`)) === 4);
    await redis.kill();
    await until('the coordinator to see the connection lost', () => coordinator.stderr().includes('lost the connection'));
    coordinator.child.kill('SIGTERM');
    expect(await exitWithin(coordinator, HANG_MS), coordinator.stderr()).toBe(130);
    expect(coordinator.stdout()).toBe('');
    expect(coordinator.stderr()).toMatch(/^blis: stopped waiting; Redis at redis:\/\/127\.0\.0\.1:\d+ did not answer, so the jobs of sweep-[0-9a-f]{16} stay wherever Redis has them: rerun/m);
  });
});
