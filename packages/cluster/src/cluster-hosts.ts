import { EventKind, type EventQueue, type RequestTable, clusterClass } from '@blis/engine/internal';
import { type InstanceConfig, RequestPart, RequestState, type SimRequest } from '@blis/engine';
import type { PoolType } from '@blis/policies';
import type { ClusterLifecycleHost } from './autoscale/cluster-lifecycle.js';
import { retireTerminated } from './autoscale/cluster-lifecycle.js';
import type { ClusterSetup } from './cluster-setup.js';
import type { ClusterMembers } from './cluster-members.js';
import { ENCODE_REJECTED_DETAIL } from './encode/encode-stage.js';
import type { FlowHost } from './flow-control/flow-controller.js';
import type { PdHost } from './pd/pd-coordinator.js';
import type { RequestExits } from './request-exits.js';
import { tellRouter } from './router-hooks.js';

const CLS_ADMISSION = clusterClass(EventKind.Admission);

/**
 * The simulator's private parts that its sub-systems reach through their hosts: handed over
 * once, when the cluster is built, so the hosts below need no access to the class's privates.
 */
export interface ClusterParts {
  readonly sim: ClusterMembers;
  readonly setup: ClusterSetup;
  readonly events: EventQueue;
  readonly table: RequestTable;
  /** Requests admitted but not yet at an instance, with when they were admitted. */
  readonly admittedAt: Map<SimRequest, number>;
  readonly exits: RequestExits;
  route(req: SimRequest, now: number): void;
  dispatchTo(req: SimRequest, target: number, now: number): void;
  /** Admission (the first cluster stage) of `req` now. */
  admit(req: SimRequest, now: number): void;
  addInstance(cfg: InstanceConfig, pool: PoolType): void;
  /** Parks a request until some replica is routable (there is a lifecycle). */
  hold(req: SimRequest, prefill: boolean): void;
  /** When a request last did anything. */
  requestActivityUs(): number;
  /** When instance `index`'s quiet steps must stop (see ClusterSimulator's `quietBoundUs`). */
  quietBoundUs(index: number): number;
}

/** What the flow-control gateway sees of the cluster. */
export function flowHostOf(parts: ClusterParts): FlowHost {
  const { sim, setup, exits } = parts;
  return {
    events: parts.events,
    snapshots: (now) => {
      sim.state.prepare(now);
      const members = sim.state.routable;
      return members === undefined ? sim.snapshots : members.map((i) => sim.snapshots[i]);
    },
    route: (req, now) => {
      sim.gatewayDelayUs.push(now - (parts.admittedAt.get(req) ?? now));
      parts.route(req, now);
    },
    turnAway: (req, now, outcome, detail) => {
      exits.reject(req, now, req, outcome, detail);
      if (exits.listening) tellRouter(exits.router, 'dropped', now, req.view, undefined, 'shed');
    },
    evict: (req, instance, now) => {
      if (!sim.instances[instance].evict(req)) return false;
      sim.counters.evicted++;
      sim.autoscaler?.requestLeft(now);
      sim.left?.push({ req, outcome: 'evicted', atUs: now });
      setup.observer?.onDropped?.(req, now, 'shed', 'in-flight eviction');
      exits.finish(req, now, setup.routing, req, 'dropped');
      return true;
    },
    // Stale snapshots may still change on refresh: only a fresh view of an idle pool is final.
    quiet: (now) => parts.events.size === 0 && setup.source.peekArrivalUs() === Number.POSITIVE_INFINITY && sim.state.freshAt(now),
  };
}

/** What the P/D coordinator sees of the cluster. */
export function pdHostOf(parts: ClusterParts): PdHost {
  const { sim, exits } = parts;
  return {
    instances: sim.instances,
    state: sim.state,
    table: parts.table,
    events: parts.events,
    observer: parts.setup.observer,
    dispatchTo: parts.dispatchTo,
    countDispatch: (req, target) => {
      sim.state.dispatched(target, req.spec.tenantId);
      sim.routedTo[target]++;
      sim.fleet?.onRouted(req.spec.index, target);
    },
    hold: parts.hold,
    gone: (i) => sim.fleet?.isTerminated(i) ?? false,
    drained: (req, now) => exits.onLeft(req, now, 'drained'),
    goneReleased: (i) => retireTerminated(sim.instances[i]),
    decodeReleased: (i, now) => {
      if (sim.fleet?.isDraining(i)) sim.fleet.onLeft(i, now);
    },
    replaceInTransit: (old, next) => {
      const at = parts.admittedAt.get(old);
      parts.admittedAt.delete(old);
      if (at !== undefined) parts.admittedAt.set(next, at);
    },
    releasePart: (part, now, policy) => exits.finish(part, now, policy, undefined),
    parentLeft: (parent, now, outcome) => exits.parentLeft(parent, now, outcome),
    listening: exits.listening,
    rejected: (req, now, policy, reason, parent) => exits.rejectedByRouter(req, now, policy, reason, parent),
    encodeRejected: (req, now) => {
      exits.reject(req, now, req, 'encode', ENCODE_REJECTED_DETAIL);
      if (exits.listening) tellRouter(exits.router, 'dropped', now, req.view, undefined, 'rejected');
    },
  };
}

/** What the replica lifecycle (fleet and autoscaler) sees of the cluster. */
export function lifecycleHostOf(parts: ClusterParts): ClusterLifecycleHost {
  const { sim, setup } = parts;
  return {
    instances: sim.instances,
    snapshots: sim.snapshots,
    state: sim.state,
    events: parts.events,
    observer: setup.observer,
    pd: sim.pd,
    addInstance: parts.addInstance,
    route: parts.route,
    drained: (req, now) => parts.exits.onLeft(req, now, 'drained'),
    // A `redirect` drain took `req` off its replica's queue: it goes through admission again.
    redirect: (req, now) => {
      const pd = sim.pd;
      sim.state.finished(req.instance, req.spec.tenantId);
      (pd?.policyFor(req) ?? setup.routing).onComplete?.(req.view, req.instance);
      sim.counters.redirected++;
      req.instance = -1;
      req.state = RequestState.Pending;
      parts.admittedAt.set(req, now);
      if (req.part === RequestPart.Prefill) {
        pd!.routePrefill(req, now);
        return;
      }
      const lat = setup.admissionLatencyUs;
      if (lat > 0) parts.events.push(now + lat, CLS_ADMISSION, EventKind.Admission, req.slot);
      else parts.admit(req, now);
    },
    liveRequests: () => parts.table.size,
    arrivalsLeft: () => setup.source.peekArrivalUs() !== Number.POSITIVE_INFINITY,
    requestActivityUs: parts.requestActivityUs,
    gatewayLength: () => sim.flow?.queue.length ?? 0,
  };
}
