import { LocatedError } from '../../located-error.js';

/** Where a queued sweep's Redis is: what `--queue redis://[user:password@]HOST:PORT[/DB]` names. */
export interface QueueUrl {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls: boolean;
  /** The URL with any password masked, for messages. */
  display: string;
}

/** A bad `--queue` value or an unreachable Redis: the user's input, reported before any work starts. */
export class QueueConnectionError extends LocatedError {
  constructor(where: string, expected: string, found: string) {
    super('QueueConnectionError', [{ where, expected, found }]);
  }
}

const EXPECTED = 'redis://HOST:PORT[/DB] (or rediss:// for TLS; user:password@ before HOST for auth)';

/** Parses and checks a queue URL; `where` names the flag or field it came from. */
export function parseQueueUrl(text: string, where = '--queue'): QueueUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new QueueConnectionError(where, EXPECTED, JSON.stringify(text));
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new QueueConnectionError(where, EXPECTED, `scheme ${JSON.stringify(url.protocol.replace(/:$/, ''))} in ${JSON.stringify(text)}`);
  if (url.hostname === '') throw new QueueConnectionError(where, EXPECTED, `no host in ${JSON.stringify(text)}`);
  // Redis has no standard port in URLs a sweep should guess at silently: 6379 is its default.
  const port = url.port === '' ? 6379 : Number(url.port);
  const path = url.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d+$/.test(path)) throw new QueueConnectionError(where, 'a database number after the port (redis://HOST:PORT/DB)', `path ${JSON.stringify(url.pathname)}`);
  const db = path === '' ? 0 : Number(path);
  if (url.search !== '' || url.hash !== '') throw new QueueConnectionError(where, EXPECTED, `extra ${JSON.stringify(url.search + url.hash)}`);
  const username = url.username === '' ? undefined : decodeURIComponent(url.username);
  const password = url.password === '' ? undefined : decodeURIComponent(url.password);
  const masked = new URL(text);
  if (masked.password !== '') masked.password = '***';
  // IPv6 literals keep their brackets in `hostname`; the socket wants them bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port, db, username, password, tls: url.protocol === 'rediss:', display: masked.toString() };
}
