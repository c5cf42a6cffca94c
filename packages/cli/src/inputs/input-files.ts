import { nonRegularFileKind } from '@blis/workload/internal';
import { constants, accessSync, statSync } from 'node:fs';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';

const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  ENOTDIR: 'a path component is not a directory',
  ELOOP: 'too many symbolic links',
  EISDIR: 'a directory',
  EROFS: 'a read-only file system',
};

/** `ENOENT (no such file or directory)`, or the code alone when we have no gloss for it. */
export function describeErrno(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === undefined) return String((e as Error)?.message ?? e);
  return ERRNO_TEXT[code] !== undefined ? `${code} (${ERRNO_TEXT[code]})` : code;
}

/**
 * Checks that the file a flag names can be read, before anything parses it, so the message names
 * the flag: `--workload-spec spec.yaml: expected a readable workload spec file, found ENOENT (...)`.
 * `allowDirectory` accepts a folder too (e.g. --model-config takes config.json or its folder).
 */
export function checkReadableFile(flag: string, path: string, what: string, allowDirectory = false): UsageIssue | undefined {
  const where = `${flag} ${path}`;
  const expected = `a readable ${what}`;
  try {
    const st = statSync(path);
    if (st.isDirectory()) {
      if (!allowDirectory) return { where, expected, found: 'a directory' };
    } else {
      // A FIFO would hold the read until a writer came, /dev/zero would never end: refused by name.
      const kind = nonRegularFileKind(st);
      if (kind !== undefined) return { where, expected: `${expected} (a regular file)`, found: kind };
    }
    accessSync(path, constants.R_OK);
  } catch (e) {
    return { where, expected, found: describeErrno(e) };
  }
  return undefined;
}

/** Throws a UsageError when `checkReadableFile` finds a problem. */
export function requireReadable(flag: string, path: string, what: string, allowDirectory = false): void {
  const issue = checkReadableFile(flag, path, what, allowDirectory);
  if (issue !== undefined) throw new UsageError([issue]);
}
