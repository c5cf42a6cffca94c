import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import type { MemoryLimit } from '@blis/cluster';
import { UsageError } from '../errors/usage-error.js';

/** The variable that sets the memory a run may use instead of the machine's (containers, tests). */
export const MEMORY_LIMIT_ENV = 'BLIS_MEMORY_LIMIT';

/**
 * The memory a run's estimate is compared with: `BLIS_MEMORY_LIMIT` bytes when set, else the
 * machine's total memory, or the container's limit when that is lower; and, whatever the
 * machine has, this process's V8 heap limit. None with `--ignore-memory-limit`. The total, not
 * the free memory: the same run on the same machine is accepted or refused alike whatever else
 * happens to run beside it.
 */
export function memoryLimit(ignore: boolean): MemoryLimit | undefined {
  if (ignore) return undefined;
  return { ...machineLimit(), heap: { bytes: getHeapStatistics().heap_size_limit, what: "Node's heap limit; --ignore-memory-limit runs anyway" } };
}

function machineLimit(): MemoryLimit {
  const given = process.env[MEMORY_LIMIT_ENV];
  if (given !== undefined && given !== '') {
    const bytes = Number(given);
    if (!/^\d+$/.test(given) || !Number.isSafeInteger(bytes) || bytes <= 0)
      throw new UsageError([{ where: MEMORY_LIMIT_ENV, expected: 'a positive whole number of bytes', found: JSON.stringify(given.slice(0, 40)) }]);
    return { bytes, what: `${MEMORY_LIMIT_ENV}; --ignore-memory-limit runs anyway` };
  }
  const total = totalmem();
  // 0 or a huge sentinel when no cgroup limit applies.
  const container = process.constrainedMemory?.() ?? 0;
  if (container > 0 && container < total) return { bytes: container, what: "this container's memory limit; --ignore-memory-limit runs anyway" };
  return { bytes: total, what: "this machine's memory; --ignore-memory-limit runs anyway" };
}
