import { request } from 'node:http';
import { type Socket, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type BlisProcess, exitWithin, startBlis } from './blis-process.js';

// SIGTERM, as Kubernetes, systemd and Docker stop a process, sent to `blis serve-sim` while
// clients hold it: a stream in flight, a request whose body never finishes, an idle connection.
// None of them may keep the server up. The bound on the exit catches a hang, not a speed.

const HANG_MS = 20_000;
let server: BlisProcess | undefined;
const sockets: { destroy(): void }[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
  if (server !== undefined && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
});

/** A TCP connection to `url` that has connected. */
function connected(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname, () => resolve(s));
    s.on('error', reject);
    sockets.push(s);
  });
}

describe('blis serve-sim', () => {
  it('stops on SIGTERM, exit 0, while a stream is in flight, a body is unfinished and a connection idles', async () => {
    server = startBlis(['serve-sim', '--model', 'meta-llama/llama-3.1-8b-instruct', '--port', '0']);
    const s = server;
    for (let i = 0; !s.stdout().includes('\n'); i++) {
      if (i > 600 || s.child.exitCode !== null) throw new Error(`serve-sim did not print its URL: ${s.stderr()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const { url } = JSON.parse(s.stdout().split('\n')[0]) as { url: string };

    // A streamed answer of 4,000 tokens: on the simulated timeline it takes far longer than the test.
    const streamEnded = new Promise<string>((resolve, reject) => {
      const req = request(`${url}/v1/completions`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.once('data', () => resolve('first token'));
        res.on('error', () => {});
      });
      req.on('error', reject);
      req.end(JSON.stringify({ model: 'm', prompt: 'one two three', max_tokens: 4000, stream: true }));
      sockets.push(req);
    });
    expect(await streamEnded).toBe('first token');
    const partial = await connected(url);
    partial.write('POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"prompt": "a b');
    await connected(url);

    s.child.kill('SIGTERM');
    expect(await exitWithin(s, HANG_MS), s.stderr()).toBe(0);
    expect(s.stderr()).toMatch(/^blis: serve-sim: stopped after \d+ request\(s\), 0 response\(s\) finished$/m);
  });
});
