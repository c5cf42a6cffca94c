import { type InstanceSimulator, RequestPart, type SimRequest } from '@blis/engine';
import type { PdCoordinator } from '../pd/pd-coordinator.js';
import type { DrainPolicy } from './autoscale-schema.js';

/** What a drain needs from the cluster. */
export interface DrainHost {
  readonly instances: readonly InstanceSimulator[];
  readonly pd: PdCoordinator | undefined;
  /** `req` was discarded by an `immediate` drain. */
  drained(req: SimRequest, now: number): void;
  /** `req` was taken off a draining queue: it goes through admission (or prefill routing) again. */
  redirect(req: SimRequest, now: number): void;
}

/**
 * Applies a drain policy to a replica that just started draining (BLIS codes the three and
 * calls none; its scale-down behaves like `wait`):
 * - `wait`: queued and running requests are served in place;
 * - `immediate`: queued and running requests are discarded (counted as drained), and the
 *   replica terminates at once;
 * - `redirect`: queued requests go back through admission, keeping their arrival time; running
 *   ones finish in place. Under P/D a queued decode part, which holds the KV transferred to
 *   this pod, stays and is served here: sending it elsewhere would need a second transfer.
 */
export function evacuate(host: DrainHost, index: number, policy: DrainPolicy, now: number): void {
  if (policy === 'wait') return;
  const inst = host.instances[index];
  if (policy === 'immediate') {
    for (const r of inst.evacuate(true)) host.drained(r, now);
    return;
  }
  const keep = host.pd !== undefined ? (r: SimRequest) => r.part === RequestPart.Decode : undefined;
  for (const r of inst.evacuate(false, keep)) host.redirect(r, now);
}
