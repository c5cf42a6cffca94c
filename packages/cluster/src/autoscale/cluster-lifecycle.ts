import type { InstanceConfig, InstanceSimulator, SimRequest } from '@blis/engine';
import type { EventQueue } from '@blis/engine/internal';
import type { PoolType } from '@blis/policies';
import type { DecisionObserver } from '@blis/trace';
import type { LiveSnapshot } from '../instance-snapshot.js';
import type { PdCoordinator } from '../pd/pd-coordinator.js';
import { PoolView } from '../pd/pool-view.js';
import type { ClusterRouterState } from '../router-state.js';
import { Autoscaler } from './autoscaler.js';
import { evacuate } from './drain.js';
import { Fleet } from './fleet.js';
import type { LifecycleSetup } from './lifecycle-setup.js';

/** The cluster as the lifecycle needs it. */
export interface ClusterLifecycleHost {
  readonly instances: readonly InstanceSimulator[];
  readonly snapshots: readonly LiveSnapshot[];
  readonly state: ClusterRouterState;
  readonly events: EventQueue;
  readonly observer: DecisionObserver | undefined;
  readonly pd: PdCoordinator | undefined;
  /** Builds an instance and what the router keeps for it. */
  addInstance(config: InstanceConfig, pool: PoolType): void;
  /** Routes a request (a whole one, or under P/D to its decode pod first). */
  route(req: SimRequest, now: number): void;
  /** `req` was discarded by an `immediate` drain. */
  drained(req: SimRequest, now: number): void;
  /** `req` was taken off a draining queue and goes through admission again. */
  redirect(req: SimRequest, now: number): void;
  /** Requests in the system, and whether arrivals are still to come. */
  liveRequests(): number;
  arrivalsLeft(): boolean;
  /** When a request last did anything (the autoscaler pauses when none has for a while). */
  requestActivityUs(): number;
  gatewayLength(): number;
}

/**
 * Ties the fleet and the autoscaler to the cluster: the routers' views follow the routable
 * replicas, and requests that find none wait here until one is routable.
 */
export class ClusterLifecycle {
  readonly fleet: Fleet;
  readonly autoscaler: Autoscaler | undefined;
  /** Without P/D: the routable replicas, which the router sees. */
  readonly routable: PoolView | undefined;
  private readonly host: ClusterLifecycleHost;
  /** Requests waiting for a routable replica; `prefill`: a P/D prefill part. */
  private held: { req: SimRequest; prefill: boolean }[] = [];

  constructor(setup: LifecycleSetup, host: ClusterLifecycleHost) {
    this.host = host;
    const pd = host.pd;
    this.routable = pd === undefined ? new PoolView(host.state, []) : undefined;
    this.fleet = new Fleet(setup.fleet, {
      events: host.events,
      observer: host.observer,
      addInstance: (cfg, pool) => {
        host.addInstance(cfg, pool);
        if (pd !== undefined) (pd.setup.layout as PoolType[])[cfg.index] = pool;
      },
      routableChanged: (members, now, opened) => this.routableChanged(members, now, opened),
      evacuate: (index, policy, now) => evacuate({ instances: host.instances, pd, drained: host.drained, redirect: host.redirect }, index, policy, now),
      idle: (index) => {
        const inst = host.instances[index];
        // Under P/D, parents still in prefill elsewhere will bring their decode here.
        return inst.queueDepth === 0 && inst.batchSize === 0 && host.snapshots[index].inFlightRequests === 0 && inst.kv.usedBlocks === 0 && (pd?.boundTo(index) ?? 0) === 0;
      },
      terminated: (index) => retireTerminated(host.instances[index]),
    });
    const as = setup.autoscaling;
    if (as !== undefined) {
      const fleet = this.fleet;
      this.autoscaler = new Autoscaler(
        as.config,
        as.policies,
        fleet,
        {
          events: host.events,
          state: host.state,
          observer: host.observer,
          waiting: (pool) => this.waitingFor(pool),
          busy: () => host.liveRequests() > 0 || host.arrivalsLeft() || (pd?.awaitingStart ?? 0) > 0,
          arrivalsLeft: () => host.arrivalsLeft(),
          requestActivityUs: () => host.requestActivityUs(),
          stalled: () => this.held.length > 0 && this.held.length === host.liveRequests() && !host.arrivalsLeft() && !fleet.starting(),
        },
        as.normal,
        as.ceiling,
      );
    }
  }

  /** Places the startup replicas and schedules the first evaluation. */
  start(): void {
    this.fleet.start();
    this.autoscaler?.start();
  }

  /** No routable replica can take `req` now: it waits for one (scale from zero). */
  hold(req: SimRequest, prefill: boolean): void {
    this.held.push({ req, prefill });
  }

  /** The routable replicas changed: the routers' views follow, and held requests may go. */
  private routableChanged(members: readonly number[], now: number, opened: boolean): void {
    const { state, pd } = this.host;
    state.routable = members;
    this.routable?.setMembers(members);
    if (pd !== undefined) {
      const layout = pd.setup.layout;
      pd.prefillPool.setMembers(members.filter((i) => layout[i] === 'prefill' || layout[i] === 'shared'));
      pd.decodePool.setMembers(members.filter((i) => layout[i] === 'decode' || layout[i] === 'shared'));
      pd.encode?.pool.setMembers(members.filter((i) => layout[i] === 'encode'));
    }
    if (!opened || this.held.length === 0) return;
    const held = this.held;
    this.held = [];
    for (const h of held) {
      if (h.prefill) pd!.routePrefill(h.req, now);
      else this.host.route(h.req, now);
    }
  }

  /** Requests waiting for a routable replica of `pool` (prefill parts for the prefill pool), plus the gateway queue. */
  private waitingFor(pool: string): number {
    let n = this.host.gatewayLength();
    for (const h of this.held) if (h.prefill === (pool === 'prefill')) n++;
    return n;
  }
}

/**
 * A terminated replica gives its KV memory back, so that a run which scales up and down holds
 * the caches of the replicas alive, not of every replica it ever had (the memory estimate counts
 * no more). Its counters stay for the results. Nothing runs on it again: its events are skipped
 * (`onTerminatedEvent`), routers see routable replicas only, and P/D sends no transfer to it.
 *
 * It holds no KV after a `wait` or `redirect` drain (it terminates when idle), nor after an
 * `immediate` one, which frees what its requests held, except under P/D the KV reserved for
 * transfers still in flight to a decode pod: each reservation goes back when its transfer ends
 * (the P/D coordinator calls this again then), and the last one lets the pod retire.
 */
export function retireTerminated(inst: InstanceSimulator): void {
  if (inst.kv.usedBlocks === 0) inst.retireKV();
}
