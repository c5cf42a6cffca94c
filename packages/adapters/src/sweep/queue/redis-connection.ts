import type { Redis, RedisOptions } from 'ioredis';
import { QueueConnectionError, type QueueUrl } from './queue-url.js';
import { Wakeup } from './wakeup.js';
import { importModule } from '../../import-module.js';

/** What a long-lived connection reports about itself: lost (and retrying), and back. */
export type ConnectionEvent = { kind: 'retrying'; attempt: number; delayMs: number; cause: string } | { kind: 'reconnected' };

/** The first retry waits this long; each later one twice as long, up to the cap. */
const RETRY_FIRST_MS = 200;
const RETRY_CAP_MS = 10_000;
const CONNECT_TIMEOUT_MS = 5_000;
/** The first check's deadline, connection and first replies together. */
const CHECK_TIMEOUT_MS = 10_000;
// How long ioredis lets a closing socket end before destroying it. It starts this timer on every
// disconnect, even for a socket a lost server closed long ago, and the timer holds the process
// open: at its default (2 s) every stop of a worker whose Redis is gone would linger that long.
const DISCONNECT_WAIT_MS = 200;

/** Backoff between reconnection attempts: 200 ms, 400 ms, ... up to 10 s, forever. */
export function retryDelayMs(attempt: number): number {
  return Math.min(RETRY_CAP_MS, RETRY_FIRST_MS * 2 ** Math.min(attempt - 1, 16));
}

function baseOptions(url: QueueUrl): RedisOptions {
  return {
    host: url.host,
    port: url.port,
    db: url.db,
    username: url.username,
    password: url.password,
    tls: url.tls ? {} : undefined,
    connectTimeout: CONNECT_TIMEOUT_MS,
    disconnectTimeout: DISCONNECT_WAIT_MS,
  };
}

/**
 * Connects once, without retries, and checks the server answers and holds the database: a
 * wrong URL, a server that is not there or refuses the credentials fails here, before any work,
 * with what the server or the socket said.
 */
export async function checkRedis(url: QueueUrl, where = '--queue', deadlineMs = CHECK_TIMEOUT_MS): Promise<void> {
  const { Redis } = await importModule<typeof import('ioredis')>('ioredis');
  const client = new Redis({ ...baseOptions(url), lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  const errors: Error[] = [];
  client.on('error', (e: Error) => errors.push(e));
  let timer: NodeJS.Timeout | undefined;
  // A server that accepts the connection and never answers (not Redis, or a stuck one) would
  // hold every command for ever: the whole check has one deadline.
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('no reply'), { code: 'NOREPLY' })), deadlineMs);
  });
  const check = async () => {
    await client.connect();
    await client.ping();
    // ioredis selects the database in the background and only logs a refusal.
    if (url.db !== 0) await client.select(url.db);
    const version = /redis_version:(\d+)\.(\d+)/.exec(await client.info('server'));
    if (version !== null && Number(version[1]) < 5)
      throw new QueueConnectionError(where, 'Redis 5.0 or later (BullMQ needs it)', `Redis ${version[1]}.${version[2]} at ${url.display}`);
  };
  try {
    await Promise.race([check(), silent]);
  } catch (e) {
    if ((e as { code?: string }).code === 'NOREPLY')
      throw new QueueConnectionError(where, `a Redis server that answers (${url.display})`, `no Redis reply from ${url.host}:${url.port} within ${deadlineMs / 1000} s (it accepted the connection: another kind of server, or a stuck one?)`);
    if (e instanceof QueueConnectionError) throw e;
    throw new QueueConnectionError(where, `a Redis server that accepts this connection (${url.display})`, describeFailure(url, errors.at(-1) ?? (e as Error)));
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}

function describeFailure(url: QueueUrl, e: Error & { code?: string }): string {
  const at = `${url.host}:${url.port}`;
  if (e.code === 'ECONNREFUSED') return `nothing listening at ${at} (connection refused)`;
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return `no host named ${JSON.stringify(url.host)} (${e.code})`;
  if (e.code === 'ETIMEDOUT' || /timeout/i.test(e.message)) return `no answer from ${at} within ${CONNECT_TIMEOUT_MS / 1000} s`;
  if (/^(NOAUTH|WRONGPASS)/.test(e.message)) return `an authentication failure: ${e.message.split(/[.,]/)[0]}`;
  if (/DB index is out of range/.test(e.message)) return `no database ${url.db} on that server (${e.message})`;
  return e.message;
}

/** A connection and every connection duplicated from it, ended together. */
export interface RedisConnections {
  /** The first connection; BullMQ (a worker's blocking connection) and the pub/sub wake-ups duplicate it. */
  redis: Redis;
  /** Whether the first connection is up now (false while it retries a server that went away). */
  answering(): boolean;
  /**
   * Ends every connection at once, with no round-trip to Redis. A command still waiting for a
   * server that is gone then never completes (ioredis keeps it queued): nothing may await one.
   */
  disconnectAll(): void;
}

/**
 * A connection for a queue, a worker or the coordinator: reconnects forever with backoff, and
 * tells `onEvent` when it loses the server and when it has it back, so a sweep says so on
 * stderr instead of hanging silently. BullMQ needs `maxRetriesPerRequest: null` (commands wait
 * for the connection instead of failing).
 */
export async function openRedis(url: QueueUrl, onEvent?: (e: ConnectionEvent) => void): Promise<RedisConnections> {
  const { Redis } = await importModule<typeof import('ioredis')>('ioredis');
  let lastError = 'connection closed';
  let lost = false;
  const client = new Redis({
    ...baseOptions(url),
    maxRetriesPerRequest: null,
    retryStrategy: (attempt: number) => {
      const delayMs = retryDelayMs(attempt);
      lost = true;
      onEvent?.({ kind: 'retrying', attempt, delayMs, cause: lastError });
      return delayMs;
    },
  });
  client.on('error', (e: Error & { code?: string }) => {
    lastError = e.code ?? e.message;
  });
  client.on('ready', () => {
    if (lost) onEvent?.({ kind: 'reconnected' });
    lost = false;
  });
  // Connections made with duplicate() (BullMQ's own among them) are kept here, so that a stop
  // ends them too: one left retrying a server that is gone holds the process open forever.
  const all = new Set<Redis>();
  const track = (c: Redis): Redis => {
    all.add(c);
    const duplicate = c.duplicate.bind(c);
    c.duplicate = ((override?: Partial<RedisOptions>) => track(duplicate(override))) as Redis['duplicate'];
    return c;
  };
  track(client);
  return {
    redis: client,
    answering: () => client.status === 'ready',
    disconnectAll: () => {
      for (const c of all) disconnectOnce(c);
    },
  };
}

/**
 * A subscription to `channel` on a connection of its own (a subscribed connection can send no
 * other command) whose messages wake `wakeup`: how a worker hears of a new sweep and the
 * coordinator of a new row, instead of polling fast. `close` ends the connection.
 */
export async function wakeOnMessages(redis: Redis, channel: string): Promise<{ wakeup: Wakeup; close(): void }> {
  const wakeup = new Wakeup();
  const subscriber = redis.duplicate();
  subscriber.on('error', () => {});
  subscriber.on('message', () => wakeup.wake());
  await subscriber.subscribe(channel);
  return { wakeup, close: () => disconnectOnce(subscriber) };
}

/** A connection that has ended is left alone: ioredis would start its socket-end timer again for nothing. */
function disconnectOnce(c: Redis): void {
  if (c.status !== 'end') c.disconnect();
}
