import { INSTANCE_STATE_NAMES, type InstanceStateValue, canTransition, isRoutable } from '../autoscale/lifecycle-state.js';
import type { SimulationResult } from '../results.js';
import type { RunLog } from './run-log.js';
import type { ViolationList } from './violation.js';

const STATE = new Map<string, InstanceStateValue>(INSTANCE_STATE_NAMES.map((n, i) => [n, i as InstanceStateValue]));
const SCHEDULING = STATE.get('scheduling') ?? (0 as InstanceStateValue);

/**
 * Autoscaler invariants from the result: replica-seconds by state add up to the total, the peak
 * never exceeds the start plus the replicas added, a drain policy's counters stay 0 under the
 * other policies.
 */
export function checkAutoscalingResult(r: SimulationResult, startReplicas: number | undefined, out: ViolationList): void {
  const a = r.autoscaling;
  if (a === undefined) return;
  const s = a.replica_seconds_by_state;
  const total = s.loading_s + s.warming_s + s.active_s + s.draining_s;
  out.check(Math.abs(total - a.replica_seconds) <= 1e-6 * Math.max(1, a.replica_seconds), 'AUTOSCALE', () => `replica-seconds by state sum to ${total}, total ${a.replica_seconds}`);
  if (startReplicas !== undefined)
    out.check(a.peak_replicas <= startReplicas + a.replicas_added, 'AUTOSCALE', () => `peak ${a.peak_replicas} replicas from ${startReplicas} plus ${a.replicas_added} added`);
  if (a.drain_policy !== 'immediate') out.check(a.drained_dropped === 0, 'AUTOSCALE', () => `${a.drained_dropped} requests drained under a ${a.drain_policy} drain`);
  if (a.drain_policy !== 'redirect') out.check(a.redirected === 0, 'AUTOSCALE', () => `${a.redirected} requests redirected under a ${a.drain_policy} drain`);
}

/**
 * Autoscaler invariants from the log: scale actions keep the group within its replica bounds,
 * every lifecycle transition is one of BLIS's allowed edges, and requests are routed only to
 * routable replicas (warming up or active).
 */
export function checkAutoscalingLog(log: RunLog, out: ViolationList): void {
  const bounds = log.facts.replicaBounds;
  const state: InstanceStateValue[] = [];
  for (const e of log.events) {
    if (e.kind === 'scale-action' && bounds !== undefined && (e.after < bounds.min || e.after > bounds.max))
      out.add('AUTOSCALE', `${e.pool} scaled ${e.before} -> ${e.after} outside [${bounds.min}, ${bounds.max}]`, { atUs: e.now });
    else if (e.kind === 'instance-state') {
      const to = STATE.get(e.state);
      if (to === undefined) {
        out.add('AUTOSCALE', `${e.id} reported unknown state ${e.state}`, { atUs: e.now });
        continue;
      }
      // A replica is born scheduling; the first state reported may be that or a step from it.
      const from = state[e.instance] ?? SCHEDULING;
      if (from !== to && !canTransition(from, to)) out.add('AUTOSCALE', `${e.id}: ${INSTANCE_STATE_NAMES[from]} -> ${e.state} is not an allowed transition`, { atUs: e.now });
      state[e.instance] = to;
    } else if (e.kind === 'routing' && bounds !== undefined) {
      const s = state[e.instance];
      if (s === undefined || !isRoutable(s))
        out.add('AUTOSCALE', `request ${e.request} routed to instance ${e.instance} in state ${s === undefined ? 'unknown' : INSTANCE_STATE_NAMES[s]}`, { request: e.request, atUs: e.now });
    }
  }
}
