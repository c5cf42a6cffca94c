import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { runSweep } from '../../src/sweep/run-sweep.js';
import { planSweep } from '../../src/sweep/sweep-plan.js';
import { loadSweepSpec } from '../../src/sweep/sweep-spec-load.js';
import { runQueuedSweep } from '../../src/sweep/queue/queued-sweep.js';
import { runQueueWorker } from '../../src/sweep/queue/queue-worker.js';
import type { ConnectionEvent } from '../../src/sweep/queue/redis-connection.js';
import { ownRedisOrSkip, spawnRedis } from '../../../../tools/test-support/redis-fixture.js';

// Connections lost mid-sweep: dropped by the server (every client of the sweep's database
// killed), and the server itself restarted empty. Each test runs its own redis-server, since it
// breaks it on purpose.

const skip = ownRedisOrSkip();
const tmp = mkdtempSync(join(tmpdir(), 'blis-queue-conn-'));
const file = join(tmp, 'sweep.yaml');
writeFileSync(
  file,
  `base:
  latencyModel: blackbox
  workload: {kind: synthetic, numRequests: 1500, rate: 40}
seeds: [1, 2, 3]
parameters:
  numInstances: [1, 2]
  routing.policy: [round-robin, least-loaded]
metrics: [ttft_p99_ms, e2e_mean_ms]
`,
);
const plan = planSweep(loadSweepSpec(file));
const bytes = (csv: string) => [readFileSync(csv, 'utf8'), readFileSync(csv.replace(/\.csv$/, '.json'), 'utf8')];

describe.skipIf(skip !== undefined)('a queued sweep that loses Redis', () => {
  it('reconnects with backoff, says so, and writes the local bytes when the server drops every connection', async () => {
    const local = join(tmp, 'local.csv');
    await runSweep(plan, { output: local, workers: 1 });
    const server = await spawnRedis();
    const url = `redis://127.0.0.1:${server.port}`;
    const events: ConnectionEvent[] = [];
    const stop = new AbortController();
    const worker = runQueueWorker({ queue: url, concurrency: 1, discoverMs: 50, signal: stop.signal, onConnection: (e) => events.push(e) });
    let killed = false;
    const admin = new Redis(url);
    try {
      const out = join(tmp, 'dropped.csv');
      await runQueuedSweep(plan, {
        output: out,
        queue: url,
        onConnection: (e) => events.push(e),
        onProgress: (c) => {
          if (!killed && c.done >= 2) {
            killed = true;
            // Every connection but the admin's own.
            void admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
          }
        },
      });
      stop.abort();
      await worker;
      expect(killed).toBe(true);
      expect(bytes(out)).toEqual(bytes(local));
      expect(events.some((e) => e.kind === 'retrying' && e.attempt === 1 && e.delayMs === 200)).toBe(true);
      expect(events.some((e) => e.kind === 'reconnected')).toBe(true);
    } finally {
      admin.disconnect();
      await server.stop();
    }
  });

  it('enqueues again what had no result when the server restarts empty, and still writes the local bytes', async () => {
    const server = await spawnRedis();
    const url = `redis://127.0.0.1:${server.port}`;
    const notices: string[] = [];
    const stop = new AbortController();
    const worker = runQueueWorker({ queue: url, concurrency: 1, discoverMs: 50, signal: stop.signal });
    let restarted: Promise<{ stop(): Promise<void> }> | undefined;
    try {
      const out = join(tmp, 'restarted.csv');
      await runQueuedSweep(plan, {
        output: out,
        queue: url,
        pollMs: 100,
        onNotice: (line) => notices.push(line),
        onProgress: (c) => {
          if (restarted === undefined && c.done >= 3) {
            restarted = (async () => {
              await server.stop();
              return spawnRedis([], server.port);
            })();
          }
        },
      });
      stop.abort();
      await worker;
      expect(bytes(out)).toEqual(bytes(join(tmp, 'local.csv')));
      expect(notices.some((n) => /state vanished from Redis; enqueueing the \d+ job\(s\) without a result again/.test(n))).toBe(true);
    } finally {
      await (await restarted)?.stop();
      await server.stop();
    }
  });
});
