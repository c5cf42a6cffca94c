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
}
