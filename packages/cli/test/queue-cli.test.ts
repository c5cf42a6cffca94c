import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSweepSpec, planSweep, runSweep } from '@blis/adapters';
import { sweepKeys } from '@blis/adapters/internal';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { redisForTests, spawnRedis } from '../../../tools/test-support/redis-fixture.js';
import { type BlisProcess, startBlis } from './blis-process.js';

// `blis sweep --queue` and `blis worker` as processes against a real redis-server: a worker
// killed (SIGKILL) while it holds a job loses nothing, and every bad queue URL or unreachable
// Redis exits 2 before any work, with nothing on stdout.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'bin', 'blis.js');
const tmp = mkdtempSync(join(tmpdir(), 'blis-queue-cli-'));
const fixture = await redisForTests(2);
const url = fixture.redis?.url ?? '';
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await fixture.redis?.stop();
});

function blis(args: readonly string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function start(args: readonly string[]): BlisProcess {
  const p = startBlis(args, true);
  children.push(p.child);
  return p;
}

function specFile(name: string, requests: number): string {
  const file = join(tmp, name);
  writeFileSync(
    file,
    `base:
  latencyModel: blackbox
  workload: {kind: synthetic, numRequests: ${requests}, rate: 40}
seeds: [1, 2]
parameters:
  numInstances: [1, 2, 3]
  routing.policy: [round-robin, least-loaded]
metrics: [ttft_p99_ms, e2e_mean_ms, responses_per_sec]
`,
  );
  return file;
}

const bytes = (csv: string) => [readFileSync(csv, 'utf8'), readFileSync(csv.replace(/\.csv$/, '.json'), 'utf8')];

describe('bad queue input exits 2 before any work, nothing on stdout', () => {
  const spec = specFile('bad.yaml', 50);
  const cases: [string, string[], RegExp][] = [
    ['a URL that is not redis://', ['sweep', spec, '--output', join(tmp, 'x.csv'), '--queue', 'http://127.0.0.1:6379'], /--queue: expected redis:\/\/HOST:PORT\[\/DB\].*found scheme "http"/],
    ['a database that is not a number', ['sweep', spec, '--output', join(tmp, 'x.csv'), '--queue', 'redis://127.0.0.1:6379/x'], /--queue: expected a database number/],
    ['--workers with --queue', ['sweep', spec, '--output', join(tmp, 'x.csv'), '--queue', 'redis://127.0.0.1:1', '--workers', '2'], /--workers: expected no --workers with --queue/],
    ['--status without --queue', ['sweep', spec, '--status'], /--status: expected --queue/],
    ['no --output', ['sweep', spec], /--output: expected a results CSV path/],
    ['nothing listening', ['sweep', spec, '--output', join(tmp, 'x.csv'), '--queue', 'redis://127.0.0.1:1'], /--queue: expected a Redis server.*found nothing listening at 127\.0\.0\.1:1 \(connection refused\)/],
    ['a worker with nothing listening', ['worker', '--queue', 'redis://127.0.0.1:1'], /--queue: expected a Redis server.*connection refused/],
    ['a worker with a bad --concurrency', ['worker', '--queue', 'redis://127.0.0.1:1', '--concurrency', '0'], /--concurrency: expected a positive integer/],
    ['a worker with a bad --max-idle', ['worker', '--queue', 'redis://127.0.0.1:1', '--max-idle', 'soon'], /--max-idle: expected a positive number of seconds/],
    ['a worker with a --stop-timeout over a day', ['worker', '--queue', 'redis://127.0.0.1:1', '--stop-timeout', '86401'], /--stop-timeout: expected a number of seconds from 0 to 86400, found "86401"/],
    ['a worker without --queue', ['worker'], /--queue/],
  ];
  for (const [name, args, message] of cases)
    it(name, () => {
      const r = blis(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    });

  it.skipIf(fixture.skip !== undefined)('wrong credentials', async () => {
    const guarded = await spawnRedis(['--requirepass', 'right']);
    try {
      const r = blis(['sweep', spec, '--output', join(tmp, 'x.csv'), '--queue', `redis://:wrong@127.0.0.1:${guarded.port}`]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/--queue: expected a Redis server that accepts this connection \(redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\), found an authentication failure: WRONGPASS/);
      const none = blis(['worker', '--queue', `redis://127.0.0.1:${guarded.port}`]);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/authentication failure: NOAUTH/);
    } finally {
      await guarded.stop();
    }
  });
});

describe.skipIf(fixture.skip !== undefined)('blis worker processes', () => {
  it('lose nothing when one is killed (SIGKILL) holding a job: every result once, the bytes of the local sweep', async () => {
    const spec = specFile('fault.yaml', 3000);
    const plan = planSweep(loadSweepSpec(spec));
    const local = join(tmp, 'local.csv');
    await runSweep(plan, { output: local, workers: 1 });

    const workerArgs = ['worker', '--queue', url, '--concurrency', '1', '--lock-duration', '1500'];
    const a = start(workerArgs);
    const b = start(workerArgs);
    const out = join(tmp, 'fault.csv');
    const coordinator = start(['sweep', spec, '--output', out, '--queue', url, '--keep-queue']);

    // The victim: whichever worker process holds the first running job (its pid is in the job's processedBy).
    const queue = new Queue(sweepKeys(plan.hash).queue, { connection: { url }, prefix: 'blis' });
    let victim: number | undefined;
    let heldJob: string | undefined;
    for (let i = 0; i < 600 && victim === undefined; i++) {
      for (const job of await queue.getActive()) {
        const pid = /:(\d+)$/.exec(job.processedBy ?? '')?.[1];
        if (pid !== undefined) {
          victim = Number(pid);
          heldJob = job.id;
          break;
        }
      }
      if (victim === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    expect(victim, 'a worker took a job').toBeDefined();
    process.kill(victim as number, 'SIGKILL');

    expect(await coordinator.exit, coordinator.stderr()).toBe(0);
    expect(bytes(out)).toEqual(bytes(local));
    const redis = new Redis(url);
    const keys = sweepKeys(plan.hash);
    // Each task has one row; the killed worker's job was finished by the other one.
    expect(await redis.hlen(keys.rows)).toBe(plan.tasks.length);
    expect(await redis.lrange(keys.done, 0, -1)).toContain(heldJob);
    expect(JSON.parse(coordinator.stdout())).toMatchObject({ csv: out, rows: plan.tasks.length, queue: keys.queue });
    redis.disconnect();
    await queue.close();
    expect(blis(['sweep', spec, '--queue', url, '--clean']).code).toBe(0);
    const survivors = [a, b].filter((w) => w.child.exitCode === null && w.child.signalCode === null);
    expect(survivors).toHaveLength(1);
    survivors[0].child.kill('SIGTERM');
    expect(await survivors[0].exit).toBe(0);
    expect(survivors[0].stderr()).toMatch(/stopped: \d+ job\(s\) done, 0 failed/);
  });
});
