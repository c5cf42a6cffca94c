import type { InstanceScheduler } from '../interfaces.js';

/** First come, first served. No `compare`: the engine keeps arrival order without sorting. */
export function createFcfsScheduler(): InstanceScheduler {
  return { name: 'fcfs' };
}
