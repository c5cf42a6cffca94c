import type { InstanceScheduler } from '../interfaces.js';
import type { SchedulerEntry } from '../views.js';

/**
 * Shortest job first by input tokens (the only length the scheduler may know), then arrival,
 * then queue-entry order. Long prompts can starve under sustained load.
 */
export function compareSjf(a: SchedulerEntry, b: SchedulerEntry): number {
  const la = a.request.inputTokens;
  const lb = b.request.inputTokens;
  if (la !== lb) return la - lb;
  const ta = a.request.arrivalUs;
  const tb = b.request.arrivalUs;
  if (ta !== tb) return ta - tb;
  return a.enqueueSeq - b.enqueueSeq;
}

export function createSjfScheduler(): InstanceScheduler {
  return { name: 'sjf', compare: compareSjf };
}
