// The file access @blis/workload needs (spec files, length CSVs, trace readers and writers), in
// Node. Sources import it as `#host-files`: a browser build resolves that name to
// ./files.browser.ts instead, so the rest of the package stays free of Node built-ins (issue 20;
// the `core-browser-safe` dependency-cruiser rule holds the line).
export { closeSync, existsSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
export { dirname, isAbsolute, join } from 'node:path';
export { StringDecoder } from 'node:string_decoder';

/** A byte buffer for `readSync`. */
export function allocBytes(size: number): Buffer {
  return Buffer.alloc(size);
}
