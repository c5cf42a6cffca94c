import { fstatSync, readSync } from 'node:fs';

// `blis evaluate` one-shot reads its request from stdin before doing anything else. The launcher
// reads it first, before the CLI has loaded, to know whether the request can need the sandbox's
// thread (see early-sandbox.ts), and hands what it read to the command, which reads on from there.

/** What the launcher read of stdin: its first bytes, and whether that was all of it. */
export interface StdinHead {
  chunks: Buffer[];
  ended: boolean;
}

const GLOBAL = '__blisStdinHead';

/** Read ahead at most this much: a larger request is read on by the command, as a stream. */
export const STDIN_HEAD_MAX_BYTES = 1 << 20;

/**
 * Reads stdin up to its end or `maxBytes`, when it is a pipe, a socket (Node's child processes
 * get one) or a file; a terminal is left to the command. Undefined when nothing could be read this way: a non-blocking stdin (EAGAIN), a
 * closed one. An error after some bytes leaves the rest to the command.
 */
export function readStdinHead(maxBytes = STDIN_HEAD_MAX_BYTES, fd = 0): StdinHead | undefined {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    const st = fstatSync(fd);
    if (!st.isFIFO() && !st.isFile() && !st.isSocket()) return undefined;
    while (bytes < maxBytes) {
      const buf = Buffer.allocUnsafe(Math.min(1 << 16, maxBytes - bytes));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) return { chunks, ended: true };
      chunks.push(buf.subarray(0, n));
      bytes += n;
    }
  } catch {
    if (chunks.length === 0) return undefined;
  }
  return { chunks, ended: false };
}

/**
 * Whether `blis <args>` is a one-shot `blis evaluate` of a request on stdin: no flag that reads
 * it from elsewhere (`--request`), streams it (`--serve`) or answers no request (`--help`).
 * Anything unknown here is left to the command, which reads stdin itself.
 */
export function evaluatesStdinOnce(args: readonly string[]): boolean {
  return args[0] === 'evaluate' && args.slice(1).every((a) => a === '--ignore-memory-limit');
}

/** Leaves `head` for {@link takeStdinHead}. */
export function lendStdinHead(head: StdinHead): void {
  (globalThis as { [GLOBAL]?: StdinHead })[GLOBAL] = head;
}

/** What the launcher read of stdin, left for the command. */
export function peekStdinHead(): StdinHead | undefined {
  return (globalThis as { [GLOBAL]?: StdinHead })[GLOBAL];
}

/** What the launcher read of stdin, once; undefined when it read nothing (the command reads all). */
export function takeStdinHead(): StdinHead | undefined {
  const g = globalThis as { [GLOBAL]?: StdinHead };
  const head = g[GLOBAL];
  delete g[GLOBAL];
  return head;
}
