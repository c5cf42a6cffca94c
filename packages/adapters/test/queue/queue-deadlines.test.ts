import { type Server, type Socket, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runQueueWorker } from '../../src/sweep/queue/queue-worker.js';
import { parseQueueUrl } from '../../src/sweep/queue/queue-url.js';
import { checkRedis } from '../../src/sweep/queue/redis-connection.js';
import { ownRedisOrSkip, spawnRedis } from '../../../../tools/test-support/redis-fixture.js';

// Network dependencies that stop answering: a server that accepts the connection and never
// replies (not Redis), and a Redis that goes away under an idle worker with --max-idle.

/** A TCP server on loopback that accepts every connection and never writes a byte. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('a server that accepts the connection and never answers', () => {
  it('fails the Redis check at its deadline, naming the address and what did not answer', async () => {
    const server = await silentServer();
    try {
      const check = checkRedis(parseQueueUrl(`redis://127.0.0.1:${server.port}`), '--queue', 300);
      await expect(check).rejects.toThrow(`--queue: expected a Redis server that answers (redis://127.0.0.1:${server.port}), found no Redis reply from 127.0.0.1:${server.port} within 0.3 s`);
    } finally {
      await server.close();
    }
  });
});

const skip = ownRedisOrSkip();

describe.skipIf(skip !== undefined)('--max-idle while Redis is gone', () => {
  it('stops an idle worker whose Redis went away, though its loop waits on a command', async () => {
    const server = await spawnRedis();
    const url = `redis://127.0.0.1:${server.port}`;
    let lost = false;
    const worker = runQueueWorker({
      queue: url,
      concurrency: 1,
      discoverMs: 50,
      maxIdleMs: 1500,
      onConnection: (e) => {
        if (e.kind === 'retrying') lost = true;
      },
    });
    // Gone before the idle time is up: every later look for sweeps waits for a server that is not there.
    await new Promise((r) => setTimeout(r, 500));
    await server.stop();
    const summary = await worker;
    expect(lost).toBe(true);
    expect(summary.redisLost).toBe(true);
    expect(summary.jobs).toBe(0);
  }, 30_000);
});
