// The browser stand-in for ./files.ts: the same exports, each throwing FileAccessUnavailable,
// so what needs no file (the catalogue, every latency model) works and what does fails clearly.
import type * as NodeFiles from './files.js';

/** Thrown in a browser build by every operation of @blis/latency that would touch a file. */
export class FileAccessUnavailable extends Error {
  readonly operation: string;
  constructor(operation: string, path: unknown) {
    super(
      `@blis/latency cannot ${operation} ${JSON.stringify(String(path))}: reading and writing files is not available in the browser; ` +
        'pass the content instead (a model from the catalogue, hardware from the catalogue)',
    );
    this.name = 'FileAccessUnavailable';
    this.operation = operation;
  }
}

const unavailable =
  (operation: string) =>
  (path?: unknown): never => {
    throw new FileAccessUnavailable(operation, path);
  };

export const readFileSync = unavailable('read') as typeof NodeFiles.readFileSync;
export const statSync = unavailable('stat') as unknown as typeof NodeFiles.statSync;
export const join = unavailable('resolve a path under') as typeof NodeFiles.join;
