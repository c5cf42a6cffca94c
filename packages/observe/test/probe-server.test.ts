import { type Socket, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { probeServer } from '../src/index.js';

// observe refuses a server that does not answer before it sends a workload: nothing listening,
// or something that accepts the connection and never answers HTTP.

describe('probeServer', () => {
  it('says that nothing answered HTTP within its deadline when the connection is accepted and left silent', async () => {
    const sockets = new Set<Socket>();
    const server = createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      expect(await probeServer(`http://127.0.0.1:${port}`, 300)).toBe('no HTTP answer to GET /v1/models within 0.3 s');
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('names the refused connection when nothing listens', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await probeServer(`http://127.0.0.1:${port}`, 2000)).toMatch(/^ECONNREFUSED: /);
  });
});
