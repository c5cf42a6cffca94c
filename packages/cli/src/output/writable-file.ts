import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { describeErrno } from '../inputs/input-files.js';
import { UsageError } from '../errors/usage-error.js';

/** Fails before any work when `path` cannot be created or replaced, naming `flag`. */
export function checkWritableFile(flag: string, path: string): void {
  try {
    const dir = statSync(dirname(path));
    if (!dir.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    accessSync(dirname(path), constants.W_OK);
    if (existsSync(path) && statSync(path).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  } catch (e) {
    throw new UsageError([{ where: `${flag} ${path}`, expected: 'a writable file', found: describeErrno(e) }]);
  }
}
