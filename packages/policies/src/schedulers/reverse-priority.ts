import type { InstanceScheduler } from '../interfaces.js';
import type { SchedulerEntry } from '../views.js';

/** Pathological: priority ascending (lowest first), then arrival, then queue-entry order. */
export function compareReversePriority(a: SchedulerEntry, b: SchedulerEntry): number {
  const pa = a.request.priority;
  const pb = b.request.priority;
  if (pa !== pb) return pa < pb ? -1 : 1;
  const ta = a.request.arrivalUs;
  const tb = b.request.arrivalUs;
  if (ta !== tb) return ta - tb;
  return a.enqueueSeq - b.enqueueSeq;
}

export function createReversePriorityScheduler(): InstanceScheduler {
  return { name: 'reverse-priority', compare: compareReversePriority };
}
