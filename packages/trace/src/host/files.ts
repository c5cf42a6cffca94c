// The file access @blis/trace needs (the JSONL file sink and reader), in Node. Sources import it
// as `#host-files`: a browser build resolves that name to ./files.browser.ts instead, so the rest
// of the package stays free of Node built-ins (issue 20; the `core-browser-safe`
// dependency-cruiser rule holds the line).
export { closeSync, openSync, readSync, writeSync } from 'node:fs';
export { StringDecoder } from 'node:string_decoder';

/** A byte buffer for `readSync`. */
export function allocBytes(size: number): Buffer {
  return Buffer.alloc(size);
}
