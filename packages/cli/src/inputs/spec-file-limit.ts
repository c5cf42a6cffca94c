import { statSync } from 'node:fs';
import { RUN_LIMITS } from '@blis/cluster';
import { UsageError } from '../errors/usage-error.js';

/**
 * Refuses a workload spec larger than RUN_LIMITS.maxSpecFileBytes before it is read: parsing
 * one takes minutes and gigabytes long before its client count could be checked.
 */
export function requireSpecFileSize(flag: string, path: string): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return; // requireReadable reports unreadable files.
  }
  if (size > RUN_LIMITS.maxSpecFileBytes)
    throw new UsageError([{ where: `${flag} ${path}`, expected: `a workload spec of at most ${RUN_LIMITS.maxSpecFileBytes} bytes (${RUN_LIMITS.maxSpecFileBytes / 1048576} MiB; ${RUN_LIMITS.maxSpecClients} clients at most)`, found: `${size} bytes` }]);
}
