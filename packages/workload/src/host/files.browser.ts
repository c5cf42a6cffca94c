// The browser stand-in for ./files.ts: the same exports, each throwing FileAccessUnavailable,
// so what needs no file (inline specs, presets, generated request streams) works and what does
// fails clearly.
import type * as NodeFiles from './files.js';

/** Thrown in a browser build by every operation of @blis/workload that would touch a file. */
export class FileAccessUnavailable extends Error {
  readonly operation: string;
  constructor(operation: string, path: unknown) {
    super(
      `@blis/workload cannot ${operation} ${JSON.stringify(String(path))}: reading and writing files is not available in the browser; ` +
        'pass the content instead (an inline WorkloadSpec object, inline empirical values, a preset)',
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
export const existsSync = unavailable('look for') as typeof NodeFiles.existsSync;
export const openSync = unavailable('open') as typeof NodeFiles.openSync;
export const readSync = unavailable('read from file descriptor') as typeof NodeFiles.readSync;
export const writeSync = unavailable('write to file descriptor') as typeof NodeFiles.writeSync;
export const closeSync = unavailable('close file descriptor') as typeof NodeFiles.closeSync;
export const dirname = unavailable('take the folder of') as typeof NodeFiles.dirname;
export const isAbsolute = unavailable('resolve the path') as typeof NodeFiles.isAbsolute;
export const join = unavailable('resolve a path under') as typeof NodeFiles.join;
export const allocBytes = unavailable('allocate a read buffer of') as typeof NodeFiles.allocBytes;
export const fileSize = unavailable('read') as typeof NodeFiles.fileSize;
export const directoryNames = unavailable('list the directory') as typeof NodeFiles.directoryNames;
export const readRegularFileWithin = unavailable('read') as typeof NodeFiles.readRegularFileWithin;
export const StringDecoder = class {
  constructor(encoding?: unknown) {
    throw new FileAccessUnavailable('decode file bytes as', encoding);
  }
} as unknown as typeof NodeFiles.StringDecoder;
