import { type MemoryEstimate, formatBytes } from './memory-estimate.js';

/** The memory a run may use (docs/limits.md): the machine's, and V8's heap within it. */
export interface MemoryLimit {
  bytes: number;
  /** Whose memory `bytes` is, and how to run anyway, for the message. */
  what: string;
  /**
   * V8's heap limit (`v8.getHeapStatistics().heap_size_limit`), which a run's JS objects must fit
   * in whatever the machine has: past it Node aborts, and only after the whole run has been
   * simulated. Unset = not compared (a browser, a caller that does not say).
   */
  heap?: { bytes: number; what: string };
}

/** The heap Node needs for `bytes`, in MiB, rounded up to a 512 MiB step: `--max-old-space-size` takes MiB. */
export function heapMegabytesFor(bytes: number): number {
  return Math.ceil(bytes / 2 ** 29) * 512;
}

/** One issue per limit the estimate passes: the machine's memory, then V8's heap. */
export function memoryLimitIssues(estimate: MemoryEstimate, limit: MemoryLimit): { expected: string; found: string }[] {
  const issues: { expected: string; found: string }[] = [];
  if (estimate.totalBytes > limit.bytes)
    issues.push({ expected: `a run that fits in ${formatBytes(limit.bytes)} (${limit.what})`, found: `an estimated ${formatBytes(estimate.totalBytes)}: ${estimate.summary}` });
  const heap = limit.heap;
  if (heap !== undefined && estimate.heapBytes > heap.bytes)
    issues.push({
      expected: `a run whose JavaScript objects fit in V8's heap of ${formatBytes(heap.bytes)} (${heap.what})`,
      found: `an estimated ${formatBytes(estimate.heapBytes)} on the heap (NODE_OPTIONS=--max-old-space-size=${heapMegabytesFor(estimate.heapBytes)} would hold it): ${estimate.heapSummary}`,
    });
  return issues;
}
