import type { InstanceConfig } from '@blis/engine';
import type { EventQueue } from '@blis/engine/internal';
import type { PoolType } from '@blis/policies';
import type { DecisionObserver } from '@blis/trace';
import { type DelaySettings, type DrainPolicy, type LifecycleConfig, type NodePoolConfig, sampleDelay } from './autoscale-schema.js';
import { INSTANCE_STATE_NAMES, InstanceState, type InstanceStateValue, checkTransition, holdsGpus, isRoutable } from './lifecycle-state.js';
import { NodeInventory, type Placement, type PoolNode } from './node-inventory.js';

/** Cluster event kinds of the lifecycle and the autoscaler (after P/D's 5-7). */
export const FLEET_TICK = 8;
export const FLEET_ACTUATE = 9;
export const FLEET_LOADED = 10;
export const FLEET_NODE_READY = 11;
export const FLEET_WARMUP_END = 12;

/** What replicas of one scaling group run on. */
export interface GroupSpec {
  readonly pool: PoolType;
  readonly gpuType: string;
  readonly tp: number;
  readonly kvCapacityTokens: number;
}

export interface FleetSettings {
  readonly lifecycle: LifecycleConfig;
  /** Configured node pools; undefined = the implicit unlimited pool. */
  readonly nodePools: readonly NodePoolConfig[] | undefined;
  /** Scaling groups: `monolithic`, or under P/D `prefill` and `decode`. */
  readonly groups: readonly GroupSpec[];
  /** What each startup instance runs on (shared and unassigned P/D pods included). */
  readonly initial: readonly GroupSpec[];
  /** A standard normal draw per stream (`loading`, `provisioning`). */
  readonly normal: (stream: 'loading' | 'provisioning') => number;
  /** Builds the configuration of a new instance with this index for a pool. */
  readonly newInstance: (index: number, pool: PoolType) => InstanceConfig;
}

/** What the lifecycle needs from the cluster. */
export interface FleetHost {
  readonly events: EventQueue;
  readonly observer: DecisionObserver | undefined;
  /** Adds a built instance to the cluster (it is not routable until the fleet says so). */
  addInstance(config: InstanceConfig, pool: PoolType): void;
  /** Routable membership changed; `opened`: some replica became routable. */
  routableChanged(routable: readonly number[], now: number, opened: boolean): void;
  /** Takes requests off a draining replica per the drain policy. */
  evacuate(index: number, policy: DrainPolicy, now: number): void;
  /** The replica has no request queued, running, in flight or holding KV. */
  idle(index: number): boolean;
  /** The replica terminated: nothing will run on it again. */
  terminated(index: number): void;
}

/** One replica as the fleet tracks it. */
export interface FleetReplica {
  readonly index: number;
  readonly id: string;
  readonly spec: GroupSpec;
  /** Index of its scaling group, or -1 (P/D shared or unassigned pods are not scaled). */
  readonly group: number;
  state: InstanceStateValue;
  since: number;
  startUs: number;
  node: PoolNode | undefined;
  costPerHour: number;
  warmLeft: number;
  warmRecorded: number;
}

/**
 * The replicas' lifecycle (Scheduling -> Loading -> WarmingUp -> Active -> Draining ->
 * Terminated), their placement on nodes, warm-up, drain and what they cost. Off unless
 * autoscaling, node pools or a lifecycle section is configured, so a plain run pays nothing.
 */
export class Fleet {
  readonly settings: FleetSettings;
  readonly inventory: NodeInventory;
  readonly replicas: FleetReplica[] = [];
  /** Seconds spent holding GPUs, by state (loading, warming, active, draining). */
  readonly secondsByState = [0, 0, 0, 0];
  replicaSeconds = 0;
  gpuSeconds = 0;
  costUsd = 0;
  peakReplicas = 0;
  unplacedReplicas = 0;
  private holding = 0;
  private readonly host: FleetHost;
  private readonly waitingForNode: FleetReplica[] = [];
  private readonly warm = new Set<number>();
  private routable: number[] = [];

  constructor(settings: FleetSettings, host: FleetHost) {
    this.settings = settings;
    this.host = host;
    const implicit = settings.nodePools === undefined ? this.implicitPool() : undefined;
    this.inventory = new NodeInventory(settings.nodePools ?? [], implicit, (d) => this.sample(d, 'provisioning'), implicit !== undefined ? settings.initial.map((s) => s.tp) : []);
  }

  /** Places the startup instances (already built by the cluster) at t = 0. */
  start(): void {
    const warmStart = this.settings.lifecycle.warmStartInitialInstances || this.settings.nodePools === undefined;
    this.settings.initial.forEach((spec, i) => {
      const r = this.track(i, spec);
      this.place(r, 0, warmStart);
    });
    this.publish(0, true, true);
  }

  /** Replicas of group `g` in state `s`. */
  count(g: number, s: InstanceStateValue): number {
    let n = 0;
    for (const r of this.replicas) if (r.group === g && r.state === s) n++;
    return n;
  }

  groupReplicas(g: number): FleetReplica[] {
    return this.replicas.filter((r) => r.group === g);
  }

  get routableIndices(): readonly number[] {
    return this.routable;
  }

  /** Replicas holding GPUs now (loading, warming up, active or draining). */
  get holdingReplicas(): number {
    return this.holding;
  }

  /** What the replicas have cost up to `now`, counting the time since each one's last transition. */
  costUsdAt(now: number): number {
    let usd = this.costUsd;
    for (const r of this.replicas) if (holdsGpus(r.state)) usd += ((now - r.since) / 1e6 / 3600) * r.costPerHour;
    return usd;
  }

  /** Some replica is on its way to serving (waiting for a node, or loading). */
  starting(): boolean {
    return this.replicas.some((r) => r.state === InstanceState.Scheduling || r.state === InstanceState.Loading);
  }

  isTerminated(index: number): boolean {
    return this.replicas[index].state === InstanceState.Terminated;
  }

  isDraining(index: number): boolean {
    return this.replicas[index].state === InstanceState.Draining;
  }

  /** Adds `n` replicas to group `g`; returns their ids and how many found no node. */
  scaleUp(g: number, n: number, now: number): { ids: string[]; unplaced: number } {
    const spec = this.settings.groups[g];
    const ids: string[] = [];
    let unplaced = 0;
    for (let k = 0; k < n; k++) {
      const index = this.replicas.length;
      this.host.addInstance(this.settings.newInstance(index, spec.pool), spec.pool);
      const r = this.track(index, spec, g);
      ids.push(r.id);
      if (!this.place(r, now, false)) unplaced++;
    }
    this.publish(now, false);
    return { ids, unplaced };
  }

  /**
   * Removes `n` replicas from group `g`: replicas not yet serving go first (waiting for a node,
   * then loading, newest first: they serve nothing), then active ones, oldest by start time
   * (BLIS picks the smallest id, which is not the oldest). Returns the ids affected.
   */
  scaleDown(g: number, n: number, now: number): string[] {
    const mine = this.groupReplicas(g);
    const newestFirst = (s: InstanceStateValue) => mine.filter((r) => r.state === s).sort((a, b) => b.startUs - a.startUs || b.index - a.index);
    const victims = [
      ...newestFirst(InstanceState.Scheduling),
      ...newestFirst(InstanceState.Loading),
      ...mine.filter((r) => r.state === InstanceState.Active).sort((a, b) => a.startUs - b.startUs || a.index - b.index),
    ].slice(0, n);
    for (const r of victims) {
      if (r.state === InstanceState.Active) this.drain(r, now);
      else this.terminate(r, now);
    }
    this.publish(now, false);
    return victims.map((r) => r.id);
  }

  handle(kind: number, index: number, now: number): void {
    const r = this.replicas[index];
    if (kind === FLEET_NODE_READY) {
      this.inventory.markReady(now);
      if (r.state === InstanceState.Scheduling && r.node?.state === 'ready') this.startLoading(r, now, false);
    } else if (kind === FLEET_LOADED) {
      if (r.state === InstanceState.Loading) this.becomeRoutable(r, now);
    } else if (kind === FLEET_WARMUP_END) {
      if (r.state === InstanceState.WarmingUp) this.setState(r, InstanceState.Active, now);
    } else throw new Error(`unknown lifecycle event kind ${kind}`);
    this.publish(now, true);
  }

  /** A request was sent to `index`: a warming-up replica records it for the TTFT factor. */
  onRouted(requestIndex: number, index: number): void {
    const r = this.replicas[index];
    if (r.state !== InstanceState.WarmingUp) return;
    const count = this.settings.lifecycle.warmUpRequestCount;
    if (count > 0 && r.warmRecorded >= count) return;
    r.warmRecorded++;
    if (this.settings.lifecycle.warmUpTtftFactor !== 1) this.warm.add(requestIndex);
  }

  /** The TTFT factor of a completed request (1 unless it was served warming up). */
  warmFactor(requestIndex: number): number {
    if (!this.warm.delete(requestIndex)) return 1;
    return this.settings.lifecycle.warmUpTtftFactor;
  }

  /** A request completed on `index`. */
  onCompleted(index: number, now: number): void {
    const r = this.replicas[index];
    if (r.state !== InstanceState.WarmingUp || this.settings.lifecycle.warmUpRequestCount === 0) return;
    if (--r.warmLeft <= 0) {
      this.setState(r, InstanceState.Active, now);
      this.publish(now, false);
    }
  }

  /** A request left `index` (any outcome): a draining replica that is now idle terminates. */
  onLeft(index: number, now: number): void {
    const r = this.replicas[index];
    if (r.state === InstanceState.Draining && this.host.idle(index)) this.terminate(r, now);
  }

  /** Closes the books at the run's end. */
  close(endUs: number): void {
    for (const r of this.replicas) this.account(r, endUs);
  }

  get finalReplicas(): number {
    return this.holding;
  }

  private track(index: number, spec: GroupSpec, group = this.settings.groups.findIndex((g) => g.pool === spec.pool)): FleetReplica {
    const r: FleetReplica = {
      index,
      id: `instance_${index}`,
      spec,
      group,
      state: InstanceState.Scheduling,
      since: 0,
      startUs: 0,
      node: undefined,
      costPerHour: this.inventory.costPerHour(spec.gpuType),
      warmLeft: this.settings.lifecycle.warmUpRequestCount,
      warmRecorded: 0,
    };
    this.replicas.push(r);
    return r;
  }

  /** Finds GPUs for a replica; false when no pool can take it (it waits for a release). */
  private place(r: FleetReplica, now: number, warmStart: boolean): boolean {
    const got = this.inventory.place(r.spec.gpuType, r.spec.tp, now);
    if (got === undefined) {
      this.unplacedReplicas++;
      this.waitingForNode.push(r);
      this.host.observer?.onInstanceState?.(r.index, r.id, 'scheduling', now);
      return false;
    }
    this.assign(r, got, now, warmStart, true);
    return true;
  }

  /** A replica got GPUs: it loads now, or waits in scheduling for its node to be ready. */
  private assign(r: FleetReplica, got: NonNullable<Placement>, now: number, warmStart: boolean, announce: boolean): void {
    r.node = got.node;
    r.costPerHour = got.node.pool.config.costPerHour;
    if (got.readyUs > now) {
      if (announce) this.host.observer?.onInstanceState?.(r.index, r.id, 'scheduling', now);
      this.host.events.push(got.readyUs, FLEET_NODE_READY, FLEET_NODE_READY, r.index);
    } else this.startLoading(r, now, warmStart);
  }

  private startLoading(r: FleetReplica, now: number, warmStart: boolean): void {
    r.startUs = now;
    this.setState(r, InstanceState.Loading, now);
    const delay = warmStart ? 0 : this.sample(this.settings.lifecycle.loadingDelay, 'loading');
    if (delay <= 0) this.becomeRoutable(r, now);
    else this.host.events.push(now + delay, FLEET_LOADED, FLEET_LOADED, r.index);
  }

  private becomeRoutable(r: FleetReplica, now: number): void {
    const lc = this.settings.lifecycle;
    const warms = lc.warmUpRequestCount > 0 || lc.warmUpDurationUs > 0;
    this.setState(r, warms ? InstanceState.WarmingUp : InstanceState.Active, now);
    if (warms && lc.warmUpDurationUs > 0) this.host.events.push(now + lc.warmUpDurationUs, FLEET_WARMUP_END, FLEET_WARMUP_END, r.index);
  }

  private drain(r: FleetReplica, now: number): void {
    this.setState(r, InstanceState.Draining, now);
    this.publish(now, false);
    const policy = this.settings.lifecycle.drainPolicy;
    this.host.evacuate(r.index, policy, now);
    // An idle replica terminates at once (BLIS waits for an event that never comes).
    if (policy === 'immediate' || this.host.idle(r.index)) this.terminate(r, now);
  }

  private terminate(r: FleetReplica, now: number): void {
    if (r.state === InstanceState.Terminated) return;
    const waiting = this.waitingForNode.indexOf(r);
    if (waiting >= 0) this.waitingForNode.splice(waiting, 1);
    this.setState(r, InstanceState.Terminated, now);
    this.host.terminated(r.index);
    if (r.node !== undefined) {
      this.inventory.release(r.node, r.spec.tp);
      r.node = undefined;
      this.retryWaiting(now);
    }
  }

  /** GPUs were freed: replicas waiting for a node try again, first come first served. */
  private retryWaiting(now: number): void {
    const queue = this.waitingForNode.splice(0);
    for (const r of queue) {
      const got = this.inventory.place(r.spec.gpuType, r.spec.tp, now);
      if (got === undefined) {
        this.waitingForNode.push(r);
        continue;
      }
      // It already reported `scheduling` when it found no node.
      this.assign(r, got, now, false, false);
    }
  }

  private setState(r: FleetReplica, to: InstanceStateValue, now: number): void {
    checkTransition(r.id, r.state, to);
    this.account(r, now);
    const held = holdsGpus(r.state);
    r.state = to;
    if (holdsGpus(to) && !held) {
      this.holding++;
      if (this.holding > this.peakReplicas) this.peakReplicas = this.holding;
    } else if (!holdsGpus(to) && held) this.holding--;
    this.host.observer?.onInstanceState?.(r.index, r.id, INSTANCE_STATE_NAMES[to], now);
  }

  /** Charges the time since the last transition to the replica's current state. */
  private account(r: FleetReplica, now: number): void {
    if (holdsGpus(r.state)) {
      const s = (now - r.since) / 1e6;
      this.secondsByState[r.state - InstanceState.Loading] += s;
      this.replicaSeconds += s;
      this.gpuSeconds += s * r.spec.tp;
      this.costUsd += (s / 3600) * r.costPerHour;
    }
    r.since = now;
  }

  /** Tells the cluster the routable set when it changed. */
  private publish(now: number, mayOpen: boolean, force = false): void {
    const next: number[] = [];
    for (const r of this.replicas) if (isRoutable(r.state)) next.push(r.index);
    const prev = this.routable;
    if (!force && next.length === prev.length && next.every((v, i) => v === prev[i])) return;
    const opened = mayOpen || next.some((i) => !prev.includes(i));
    this.routable = next;
    this.host.routableChanged(next, now, opened);
  }

  private sample(d: DelaySettings, stream: 'loading' | 'provisioning'): number {
    return sampleDelay(d, () => this.settings.normal(stream));
  }

  /** No node pools configured: one unlimited pool at no cost, a node per replica sized to it. */
  private implicitPool(): NodePoolConfig {
    return {
      name: 'default',
      gpuType: '',
      gpusPerNode: Math.max(1, ...this.settings.initial.map((s) => s.tp), ...this.settings.groups.map((g) => g.tp)),
      gpuMemoryGib: 1,
      initialNodes: 0,
      minNodes: 0,
      maxNodes: Number.POSITIVE_INFINITY,
      provisioningDelay: this.settings.lifecycle.provisioningDelay,
      costPerHour: 0,
    };
  }
}
