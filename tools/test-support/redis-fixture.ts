import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { connect, createServer } from 'node:net';

/**
 * A Redis for one test file. CI (.ci/run) starts one on loopback and names it in
 * BLIS_TEST_REDIS_URL; each file then takes a database of its own and empties it first.
 * Elsewhere the file starts its own `redis-server` on a free loopback port, and stops it after.
 * Without a `redis-server` the tests skip, saying why, except under CI, where that fails.
 */
export interface RedisFixture {
  /** redis://127.0.0.1:PORT/DB */
  url: string;
  stop(): Promise<void>;
}

export type RedisOrSkip = { redis: RedisFixture; skip?: undefined } | { redis?: undefined; skip: string };

function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Sends inline commands to a loopback Redis and tells whether its replies match `expect`. Plain
 * sockets, so that this helper (shared by several packages' tests) needs no Redis client.
 */
function answers(port: number, commands: readonly string[], expect: RegExp): Promise<boolean> {
  return new Promise((resolve) => {
    let reply = '';
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.on('connect', () => socket.write(commands.map((c) => `${c}\r\n`).join('')));
    socket.on('data', (d) => {
      reply += String(d);
      if (expect.test(reply)) done(true);
      else if (reply.split('\r\n').length > commands.length) done(false);
    });
    socket.on('error', () => done(false));
  });
}

/** Starts a redis-server with `args` (e.g. `--requirepass x`) on `port`, or on a free loopback port. */
export async function spawnRedis(args: readonly string[] = [], at?: number): Promise<{ port: number; child: ChildProcess; stop(): Promise<void> }> {
  const port = at ?? (await freePort());
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args], { stdio: 'ignore' });
  for (let i = 0; !(await answers(port, ['PING'], /^(\+PONG|-NOAUTH)/)); i++) {
    if (i > 100) throw new Error(`redis-server on port ${port} did not start`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Whether these tests may start redis-servers of their own; the reason to skip when not (a failure under CI). */
export function ownRedisOrSkip(): string | undefined {
  if (hasRedisServer()) return undefined;
  const reason = 'redis-server is not installed (Debian: apt-get install redis-server); the queued-sweep tests need a real Redis';
  if (process.env.CI !== undefined && process.env.CI !== '') throw new Error(`${reason}: under CI this is a failure (.ci/run installs and starts it)`);
  console.warn(`skipping: ${reason}`);
  return reason;
}

/** The Redis of a test file; `db` picks the file's database when CI's shared server is used. */
export async function redisForTests(db: number): Promise<RedisOrSkip> {
  const shared = process.env.BLIS_TEST_REDIS_URL;
  if (shared !== undefined && shared !== '') {
    const base = shared.replace(/\/\d*$/, '');
    const port = Number(new URL(base).port || 6379);
    if (!(await answers(port, [`SELECT ${db}`, 'FLUSHDB'], /^\+OK\r\n\+OK\r\n$/))) throw new Error(`cannot empty database ${db} of ${shared}`);
    return { redis: { url: `${base}/${db}`, stop: async () => {} } };
  }
  const skip = ownRedisOrSkip();
  if (skip !== undefined) return { skip };
  const server = await spawnRedis();
  return { redis: { url: `redis://127.0.0.1:${server.port}/0`, stop: server.stop } };
}
