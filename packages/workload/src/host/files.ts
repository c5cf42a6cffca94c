// The file access @blis/workload needs (spec files, length CSVs, trace readers and writers), in
// Node. Sources import it as `#host-files`: a browser build resolves that name to
// ./files.browser.ts instead, so the rest of the package stays free of Node built-ins (issue 20;
// the `core-browser-safe` dependency-cruiser rule holds the line).
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { nonRegularFileKind } from '../file-kind.js';
export { closeSync, existsSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
export { dirname, isAbsolute, join } from 'node:path';
export { StringDecoder } from 'node:string_decoder';

/** The names in a directory (unsorted), or what stops it being read. */
export function directoryNames(path: string): string[] {
  if (!statSync(path).isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, scandir '${path}'`), { code: 'ENOTDIR' });
  return readdirSync(path);
}

/** A byte buffer for `readSync`. */
export function allocBytes(size: number): Buffer {
  return Buffer.alloc(size);
}

/** A file's size in bytes, read before the file is (an oversized input is refused unread). */
export function fileSize(path: string): number {
  return statSync(path).size;
}

/**
 * The bytes of the regular file at `path` when it holds at most `maxBytes`; else its size, or
 * what it is instead of a regular file. A FIFO is refused before it is opened (opening one
 * waits for a writer) and a device (/dev/zero never ends) without reading it; the read stops
 * one byte past the limit, so a file that grows after the check cannot take the memory either.
 */
export function readRegularFileWithin(path: string, maxBytes: number): { bytes: Buffer } | { size: number } | { kind: string } {
  const kind = nonRegularFileKind(statSync(path));
  if (kind !== undefined) return { kind };
  const fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd);
    const again = nonRegularFileKind(st);
    if (again !== undefined) return { kind: again };
    if (st.size > maxBytes) return { size: st.size };
    const buf = Buffer.allocUnsafe(Math.min(maxBytes, st.size) + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
      if (n === buf.length) {
        if (n > maxBytes) return { size: n };
        break;
      }
    }
    return { bytes: buf.subarray(0, n) };
  } finally {
    closeSync(fd);
  }
}
