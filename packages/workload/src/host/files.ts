// The file access @blis/workload needs (spec files, length CSVs, trace readers and writers), in
// Node. Sources import it as `#host-files`: a browser build resolves that name to
// ./files.browser.ts instead, so the rest of the package stays free of Node built-ins (issue 20;
// the `core-browser-safe` dependency-cruiser rule holds the line).
import { statSync } from 'node:fs';
export { closeSync, existsSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
export { dirname, isAbsolute, join } from 'node:path';
export { StringDecoder } from 'node:string_decoder';

/** A byte buffer for `readSync`. */
export function allocBytes(size: number): Buffer {
  return Buffer.alloc(size);
}

/** A file's size in bytes, read before the file is (an oversized input is refused unread). */
export function fileSize(path: string): number {
  return statSync(path).size;
}
