import { type MemoryEstimate, formatBytes } from './memory-estimate.js';
import type { MemoryLimit } from './memory-limit.js';
import { RunLimitError } from './run-limit-error.js';
import { RUN_LIMITS } from './run-limits.js';

/**
 * The most instances an autoscaled fleet may hold at once, whatever its policy asks: the
 * instance limit, and what the memory left beside the run's estimate holds. A custom autoscaler
 * returning `delta: 1e9` on a fleet bounded by nothing (or by node pools alone, where replicas
 * wait unplaced) built instances until the process ran out of memory.
 */
export interface FleetCeiling {
  instances: number;
  /** What sets it, for the message. */
  why: string;
}

export interface FleetCeilingInput {
  /** Instances the estimate counted (the startup fleet, plus the autoscaled peak when bounded). */
  counted: number;
  estimate: MemoryEstimate;
  /** The same estimate with one more instance like the largest: the price of a replica. */
  withOneMore: MemoryEstimate;
  limit: MemoryLimit | undefined;
}

export function fleetCeiling({ counted, estimate, withOneMore, limit }: FleetCeilingInput): FleetCeiling {
  let ceiling: FleetCeiling = { instances: RUN_LIMITS.maxInstances, why: 'the instance limit' };
  if (limit === undefined) return ceiling;
  const room = (total: number, extra: number, bytes: number) => (extra > 0 ? counted + Math.floor(Math.max(0, bytes - total) / extra) : Number.POSITIVE_INFINITY);
  const machine = room(estimate.totalBytes, withOneMore.totalBytes - estimate.totalBytes, limit.bytes);
  if (machine < ceiling.instances) ceiling = { instances: machine, why: `what ${formatBytes(limit.bytes)} holds (${limit.what}) at ${formatBytes(withOneMore.totalBytes - estimate.totalBytes)} an instance` };
  const heap = limit.heap;
  if (heap !== undefined) {
    const inHeap = room(estimate.heapBytes, withOneMore.heapBytes - estimate.heapBytes, heap.bytes);
    if (inHeap < ceiling.instances) ceiling = { instances: inHeap, why: `what V8's heap of ${formatBytes(heap.bytes)} holds (${heap.what})` };
  }
  return ceiling;
}

/**
 * Refuses a scale-up that would take the fleet past its ceiling, at the moment it is carried out
 * (the policy's wish is only known then): `live` instances not yet terminated, `adding` more.
 */
export function checkScaleUp(ceiling: FleetCeiling | undefined, live: number, adding: number, what: string): void {
  if (ceiling === undefined || live + adding <= ceiling.instances) return;
  throw new RunLimitError([
    {
      path: ['autoscaling', 'maxReplicas'],
      expected: `a fleet of at most ${ceiling.instances} instances at once (${ceiling.why}); bound the autoscaler with a maximum`,
      found: `${what}: ${live} + ${adding} = ${live + adding} instances`,
    },
  ]);
}
