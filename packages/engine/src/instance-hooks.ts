import type { StepBatch } from '@blis/latency';
import type { SimRequest } from './request.js';

/** What an instance tells its driver (the cluster) about requests leaving it. */
export interface InstanceHooks {
  onCompleted(req: SimRequest, now: number): void;
  onDropped(req: SimRequest, now: number): void;
  onTimedOut?(req: SimRequest, now: number): void;
  /** Observation points for decision traces; absent hooks cost nothing. */
  onQueued?(req: SimRequest, now: number, instance: number): void;
  onScheduled?(req: SimRequest, now: number, instance: number): void;
  onPreempted?(req: SimRequest, now: number, instance: number): void;
  onStep?(now: number, stepTime: number, batch: StepBatch, instance: number): void;
  /**
   * When the host's next event that could reach this instance is due (µs; Infinity: none): the
   * instance may take quiet steps (plain decode, nothing due, nothing queued) that start
   * strictly before it without events, scheduling only the step after them
   * (instance-quiet-steps.ts). At most the head of the event queue, unless the host knows that
   * other instances' events cannot reach this one before that time (a cluster whose arrivals
   * are open-loop and whose instances share nothing between arrivals); never past this
   * instance's own pending events. Asked once per step event that could start such a run.
   * Absent: every step is an event.
   */
  quietBoundUs?(): number;
}
