import type { InstanceScheduler } from '../interfaces.js';
import type { SchedulerEntry } from '../views.js';

/** Priority descending, then arrival ascending, then queue-entry order. */
export function comparePriorityFcfs(a: SchedulerEntry, b: SchedulerEntry): number {
  const pa = a.request.priority;
  const pb = b.request.priority;
  if (pa !== pb) return pb > pa ? 1 : -1;
  const ta = a.request.arrivalUs;
  const tb = b.request.arrivalUs;
  if (ta !== tb) return ta - tb;
  return a.enqueueSeq - b.enqueueSeq;
}

export function createPriorityFcfsScheduler(): InstanceScheduler {
  return { name: 'priority-fcfs', compare: comparePriorityFcfs };
}
