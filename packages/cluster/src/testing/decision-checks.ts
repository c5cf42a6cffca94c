import type { RunLog } from './run-log.js';
import type { ViolationList } from './violation.js';

/**
 * INV-7 (signal freshness: a policy's snapshot of an instance is never older than the refresh
 * interval, exactly current with refresh 0, except under autoscaling; and its in-flight count
 * is live) and INV-9 (no
 * admission or routing decision is shown an output length) over the logged decision views.
 */
export function checkDecisions(log: RunLog, out: ViolationList): void {
  const refresh = log.facts.snapshotRefreshIntervalUs;
  // Replicas that are not routable (loading, draining, terminated) are not refreshed: skipped.
  // Under autoscaling a replica may be in the view before its first snapshot: ages unchecked.
  const state = new Map<number, string>();
  const autoscaled = log.facts.replicaBounds !== undefined;
  for (const e of log.events) {
    if (e.kind === 'instance-state') state.set(e.instance, e.state);
    if (e.kind !== 'decision') continue;
    const where = { request: e.request, atUs: e.now };
    if (e.view.exposedKeys.length > 0) out.add('INV-9', `${e.stage} of request ${e.request} was shown ${e.view.exposedKeys.join(', ')}`, where);
    for (const s of e.view.instances) {
      const st = state.get(s.index);
      if (st !== undefined && st !== 'active' && st !== 'warming-up') continue;
      const stale = autoscaled ? false : refresh === 0 ? s.snapshotAgeUs !== 0 : s.snapshotAgeUs >= refresh || s.snapshotAgeUs < 0;
      if (stale) out.add('INV-7', `${e.stage} of request ${e.request} saw a snapshot of instance ${s.index} ${s.snapshotAgeUs} µs old (refresh ${refresh} µs)`, where);
      if (s.inFlightTruth !== undefined && s.inFlight !== s.inFlightTruth)
        out.add('INV-7', `${e.stage} of request ${e.request} saw ${s.inFlight} in flight on instance ${s.index}; the router had sent ${s.inFlightTruth}`, where);
    }
  }
}
