import { EventKind, EventQueue, GrowableFloat64, RequestTable, clusterClass, instanceOfClass } from '@blis/engine/internal';
import { ClockRegressionError, type InstanceSimulator, InvariantViolation, RequestPart, type SimRequest } from '@blis/engine';
import type { RoutingPolicy } from '@blis/policies';
import { FC_EVICT, FC_TICK, FC_TTL, FlowController } from './flow-control/flow-controller.js';
import { CompletionLog, Interner, type SessionStats } from './completion-log.js';
import type { ClusterCounters, ClusterSetup } from './cluster-setup.js';
import type { LiveSnapshot } from './instance-snapshot.js';
import { ClusterRouterState } from './router-state.js';
import { PD_PREFILL_ROUTING, PD_TRANSFER_DONE, PD_TRANSFER_START, PdCoordinator } from './pd/pd-coordinator.js';
import type { PoolView } from './pd/pool-view.js';
import { FLEET_ACTUATE, FLEET_LOADED, FLEET_NODE_READY, FLEET_TICK, FLEET_WARMUP_END, type Fleet } from './autoscale/fleet.js';
import type { Autoscaler } from './autoscale/autoscaler.js';
import { ClusterLifecycle } from './autoscale/cluster-lifecycle.js';
import { TimeSeriesRecorder } from './timeseries/timeseries-recorder.js';
import { forEachLiveRequest, type LeftRequest } from './request-outcomes.js';
import { noteRouted, tellRouter } from './router-hooks.js';
import { RequestExits } from './request-exits.js';
import { type ClusterParts, flowHostOf, lifecycleHostOf, pdHostOf } from './cluster-hosts.js';
import { checkClusterConservation } from './cluster-conservation.js';
import { addClusterInstance } from './cluster-instance.js';

const ADMISSION = EventKind.Admission;
const ROUTING = EventKind.Routing;
const INJECT = 4;

/**
 * N instances on one clock behind admission -> priority -> routing. Cluster events at a tick run
 * before instance events at that tick; instances run lowest index first (one event heap whose
 * ordering class encodes both). Arrivals are pulled lazily from the source.
 */
export class ClusterSimulator {
  readonly instances: InstanceSimulator[];
  readonly snapshots: LiveSnapshot[];
  readonly state: ClusterRouterState;
  readonly counters: ClusterCounters = { injected: 0, rejected: 0, shed: 0, expired: 0, evicted: 0, completed: 0, dropped: 0, timedOut: 0, inTransit: 0, drainedDropped: 0, redirected: 0, encodeRejected: 0 };
  readonly log = new CompletionLog();
  readonly sloNames = new Interner();
  readonly tenantNames = new Interner();
  /** Requests that left without completing, kept only with per-request records (`recordRequestIds`). */
  readonly left: LeftRequest[] | undefined;
  readonly gatewayDelayUs = new GrowableFloat64();
  readonly sessions = new Map<string, SessionStats>();
  /** Requests routed to each instance. */
  readonly routedTo: number[];
  /** P/D disaggregation's state and statistics, when it is on. */
  readonly pd: PdCoordinator | undefined;
  /** Replica lifecycle and placement, when configured. */
  readonly fleet: Fleet | undefined;
  readonly autoscaler: Autoscaler | undefined;
  /** The run's time series, when one was asked for. */
  readonly timeseries: TimeSeriesRecorder | undefined;
  endUs = -0; // a double from the start (see EventQueue.poppedTime in @blis/engine), as are the times below

  /** The goodput recorder of the run, when some SLO class is gated. */
  get goodput(): ClusterSetup['goodput'] {
    return this.setup.goodput;
  }

  private readonly setup: ClusterSetup;
  // Small at first: the heaps then first grow while their code warms up, not after it was
  // optimised (a timeout per request fills the deadline heap to the requests in flight).
  private readonly events = new EventQueue(64);
  private readonly table = new RequestTable();
  /** The flow-control gateway between admission and routing, when it is on. */
  readonly flow: FlowController | undefined;
  private readonly admittedAt = new Map<SimRequest, number>();
  private clock = -0;
  /** Tick of the last event that did something (see `run`). */
  private lastActiveUs = -0;
  /** When a request last did anything: the autoscaler pauses when none has for a while. */
  private requestActivityUs = -0;
  private readonly clsAdmission = clusterClass(ADMISSION);
  private readonly clsInject = INJECT;
  private readonly injectTarget = new Map<number, number>();
  /** Replica lifecycle and autoscaler wiring, when configured. */
  private readonly lifecycle: ClusterLifecycle | undefined;
  /** With a lifecycle, no P/D: the routable instances, which the router sees. */
  private readonly routable: PoolView | undefined;
  /** The router that hears about every request the user sent (under P/D, the decode router). */
  private readonly router: RoutingPolicy;
  /** Some router has an `onEvent` hook (decided once: no event objects otherwise). */
  private readonly listening: boolean;
  /** Where requests leave: counters, the completion log, the routers' and source's hooks. */
  private readonly exits: RequestExits;
  /** The limit of the `advance` under way: instances take no quiet step at or past it. */
  private limitUs = Number.POSITIVE_INFINITY;
  /** The time series' next grid point; Infinity without one, so the check in `advance` never fires. */
  private nextSampleUs = Number.POSITIVE_INFINITY;
  /**
   * Instances share nothing between the cluster's own events (decided once): arrivals do not
   * answer completions (an open-loop source), no router hears events, and no gateway, P/D
   * coordinator or fleet acts when a request leaves. Another instance's step then reaches no
   * instance but its own, and quiet steps may run past it.
   */
  private readonly isolated: boolean;
  /**
   * The source's next arrival as the event loop last read it. Stale (earlier than the source's)
   * only while an arrival is being handled, when no step runs; an open-loop source does not move
   * it otherwise. Spares an isolated instance's quiet-run attempt the source's own look-up.
   */
  private arrivalUs = Number.NEGATIVE_INFINITY;

  constructor(setup: ClusterSetup) {
    this.setup = setup;
    this.left = setup.recordRequestIds === true ? [] : undefined;
    const exits = new RequestExits(this, setup, this.table, this.admittedAt);
    this.exits = exits;
    this.router = exits.router;
    this.listening = exits.listening;
    const src = setup.source;
    this.isolated = (src.openLoop === true || src.onRequestDone === undefined) && !this.listening && setup.pd === undefined && setup.flowControl === undefined && setup.lifecycle === undefined;
    this.instances = [];
    this.snapshots = [];
    this.routedTo = [];
    const parts: ClusterParts = {
      sim: this,
      setup,
      events: this.events,
      table: this.table,
      admittedAt: this.admittedAt,
      exits,
      route: (req, now) => this.route(req, now),
      dispatchTo: (req, target, now) => this.dispatchTo(req, target, now),
      admit: (req, now) => this.admit(req, now),
      addInstance: (cfg, pool) => addClusterInstance(parts, cfg, pool),
      hold: (req, prefill) => this.lifecycle!.hold(req, prefill),
      requestActivityUs: () => this.requestActivityUs,
      quietBoundUs: (i) => this.quietBoundUs(i),
    };
    for (const cfg of setup.instances) addClusterInstance(parts, cfg, setup.pd?.layout[cfg.index] ?? 'monolithic');
    const fc = setup.flowControl;
    const sat = setup.saturation;
    this.state = new ClusterRouterState(this.snapshots, setup.snapshotRefreshIntervalUs, sat?.queueDepthThreshold ?? 5, sat?.kvUtilizationThreshold ?? 0.8, setup.cacheSignalDelayUs ?? 0);
    this.flow = fc === undefined ? undefined : new FlowController(fc, flowHostOf(parts));
    this.pd = setup.pd === undefined ? undefined : new PdCoordinator(setup.pd, pdHostOf(parts));
    const lc = setup.lifecycle;
    if (lc !== undefined) {
      this.lifecycle = new ClusterLifecycle(lc, lifecycleHostOf(parts));
      this.fleet = this.lifecycle.fleet;
      this.autoscaler = this.lifecycle.autoscaler;
      this.routable = this.lifecycle.routable;
      this.lifecycle.start();
    }
    const ts = setup.timeseries;
    this.timeseries = ts === undefined ? undefined : new TimeSeriesRecorder(ts.intervalUs, ts.maxSamples, this);
    if (this.timeseries !== undefined) this.nextSampleUs = this.timeseries.nextUs;
  }

  /** What the cluster was built from (its policy objects, for custom metrics). */
  get settings(): Readonly<ClusterSetup> {
    return this.setup;
  }

  get hasGateway(): boolean {
    return this.flow !== undefined;
  }

  get gatewayLength(): number {
    return this.flow?.queue.length ?? 0;
  }

  run(): void {
    this.advance(this.setup.horizonUs);
    this.close();
  }

  /** The simulated time: the tick of the last arrival or event processed. */
  get clockUs(): number {
    return this.clock;
  }

  /** The tick of the next arrival or event, Infinity when there is none (for live drivers). */
  get nextEventUs(): number {
    return Math.min(this.setup.source.peekArrivalUs(), this.events.peekTime());
  }

  /**
   * Processes every arrival and event up to `limitUs` (inclusive) and stops, without closing the
   * run: a live driver (a server on the simulator's timeline) calls it as its wall clock moves,
   * with a source it pushes requests into. {@link run} is `advance(horizon)` and {@link close}.
   */
  advance(limitUs: number): void {
    const { source } = this.setup;
    const ev = this.events;
    const progress = this.setup.onProgress;
    let sinceProgress = 0;
    this.limitUs = limitUs;
    for (;;) {
      const nextArrival = source.peekArrivalUs();
      this.arrivalUs = nextArrival;
      const nextEvent = ev.peekTime();
      const t = Math.min(nextArrival, nextEvent);
      if (t === Number.POSITIVE_INFINITY || t > limitUs) break;
      if (t < this.clock) throw new ClockRegressionError(this.clock, t);
      if (t > this.nextSampleUs) this.sampleBefore(t);
      this.clock = t;
      // Arrivals have the lowest class of all, so at equal ticks they go first.
      if (nextArrival <= nextEvent) {
        this.onArrival(source.next()!, t);
        this.lastActiveUs = t;
        this.requestActivityUs = t;
      } else {
        ev.pop();
        const cls = ev.poppedClass;
        const inst = instanceOfClass(cls);
        if (inst < 0) {
          if (this.onClusterEvent(ev.poppedKind, ev.poppedArg, t)) this.lastActiveUs = t;
        } else if (this.fleet === undefined) {
          if (this.instances[inst].handle(ev.poppedKind, ev.poppedArg, t)) this.lastActiveUs = t;
        } else this.onFleetInstanceEvent(inst, t);
      }
      if (progress !== undefined && ++sinceProgress >= 65536) {
        sinceProgress = 0;
        progress(this.counters.completed + this.counters.dropped + this.counters.rejected + this.counters.timedOut + this.counters.shed, t);
      }
    }
  }

  /**
   * When instance `index`'s quiet steps must stop: the next arrival, time-series point or
   * `advance` limit, and the next event that could reach it. In an isolated cluster (see
   * `isolated`) that is the next cluster event, the next deadline of any instance (the
   * instance's own among them) or a request still on its way into this instance's queue;
   * otherwise the head of the event queue, whatever instance it belongs to.
   */
  private quietBoundUs(index: number): number {
    const ev = this.events;
    const bound = Math.min(this.nextSampleUs, this.limitUs);
    if (!this.isolated) return Math.min(this.setup.source.peekArrivalUs(), ev.peekTime(), bound);
    const own = this.instances[index].lastQueuedDueUs < this.clock ? Math.min(ev.peekClusterTime(), ev.peekDeadlineTime()) : ev.peekTime();
    return Math.min(this.arrivalUs, own, bound);
  }

  /** Closes the run at its last real event (or the horizon): end time, in-transit count, fleet. */
  close(): void {
    const { horizonUs } = this.setup;
    // The run ends with its last real event: deadlines of requests that already left do not count.
    let end = this.lastActiveUs;
    for (const inst of this.instances) if (inst.lastBusyUntil > end) end = inst.lastBusyUntil;
    this.endUs = Math.min(end, horizonUs);
    this.counters.inTransit = this.admittedAt.size;
    this.timeseries?.sampleThrough(this.endUs, this);
    this.timeseries?.endAt(this.endUs);
    this.timeseries?.sampleEnd(this.endUs, this);
    this.fleet?.close(this.endUs);
  }

  private sampleBefore(t: number): void {
    const ts = this.timeseries!;
    ts.sampleBefore(t, this);
    this.nextSampleUs = ts.nextUs;
  }

  /** An instance event when replicas have a lifecycle: a draining one may have just gone idle. */
  private onFleetInstanceEvent(inst: number, t: number): void {
    const fleet = this.fleet!;
    const ev = this.events;
    if (fleet.isTerminated(inst)) {
      this.onTerminatedEvent(ev.poppedKind, ev.poppedArg, t);
      return;
    }
    const instance = this.instances[inst];
    if (instance.handle(ev.poppedKind, ev.poppedArg, t)) {
      // A step may have taken quiet steps after it (instance-quiet-steps.ts): each one is
      // activity, as its own event would have been. Stale values are before `t`.
      const last = Math.max(t, instance.lastQuietStepUs);
      this.lastActiveUs = last;
      this.requestActivityUs = last;
    }
    // Requests complete inside a step, before it retires them: only now is the replica idle.
    if (fleet.isDraining(inst)) fleet.onLeft(inst, t);
  }

  /**
   * An event of a replica an `immediate` drain terminated: a request still on its way in (its
   * alpha queueing delay) is discarded with the rest; steps and deadlines have nothing to act on.
   */
  private onTerminatedEvent(kind: number, arg: number, now: number): void {
    if (kind !== EventKind.Queued) return;
    this.exits.onLeft(this.table.get(arg), now, 'drained');
    this.lastActiveUs = now;
  }

  /** Conservation (INV-1) over the whole cluster; throws InvariantViolation when it fails. */
  checkConservation(): void {
    checkClusterConservation(this.counters, this.table.size + (this.pd?.awaitingStart ?? 0), this.stillQueued(), this.instances, this.pd);
  }

  /** The requests still in the system, each as the user sent it; `running` when in a batch. */
  forEachLive(fn: (req: SimRequest, running: boolean) => void): void {
    const pd = this.pd;
    forEachLiveRequest(this.table, pd === undefined ? undefined : (f) => pd.forEachLiveParent(f), fn);
  }

  /** Requests waiting at instances (wait queues) plus those still in their alpha queueing delay. */
  stillQueued(): number {
    return this.table.size - this.stillRunning() - this.counters.inTransit;
  }

  stillRunning(): number {
    let n = 0;
    for (const i of this.instances) n += i.batchSize;
    return n;
  }

  private onArrival(spec: import('@blis/engine').RequestSpec, now: number): void {
    this.counters.injected++;
    this.setup.goodput?.onArrival(spec);
    const req = this.table.add(spec);
    this.state.recordArrival(spec.tenantId, now);
    this.admittedAt.set(req, now);
    if (this.listening) tellRouter(this.router, 'arrival', now, req.view);
    const lat = this.setup.admissionLatencyUs;
    if (lat > 0) this.events.push(now + lat, this.clsAdmission, ADMISSION, req.slot);
    else this.admit(req, now);
  }

  /** Runs a cluster event; false when it changed nothing (an autoscaler tick, a void decision). */
  private onClusterEvent(kind: number, arg: number, now: number): boolean {
    // Kinds below the fleet's are request work: admission, routing, P/D, injection.
    if (kind < FLEET_TICK) this.requestActivityUs = now;
    switch (kind) {
      case FC_TICK:
      case FC_TTL:
      case FC_EVICT:
        if (!this.flow!.handle(kind, arg, now)) return false;
        this.requestActivityUs = now;
        return true;
      case ADMISSION:
        this.admit(this.table.get(arg), now);
        break;
      case ROUTING:
        this.route(this.table.get(arg), now);
        break;
      case PD_PREFILL_ROUTING:
      case PD_TRANSFER_START:
      case PD_TRANSFER_DONE:
        this.pd!.handle(kind, arg, now);
        break;
      case INJECT: {
        const req = this.table.get(arg);
        const target = this.injectTarget.get(arg)!;
        this.injectTarget.delete(arg);
        if (this.fleet?.isTerminated(target)) {
          // Its replica was drained away while the request travelled: it is routed again.
          this.state.finished(target, req.spec.tenantId);
          if (req.part === RequestPart.Prefill) this.pd!.routePrefill(req, now);
          else this.route(req, now);
          break;
        }
        this.admittedAt.delete(req);
        this.instances[target].inject(req, now);
        break;
      }
      case FLEET_TICK:
        this.autoscaler!.tick(now);
        return false;
      case FLEET_ACTUATE:
        // A decision the bounds reduced to nothing is not activity: it must not stretch the run.
        return this.autoscaler!.actuate(arg, now);
      case FLEET_LOADED:
      case FLEET_NODE_READY:
      case FLEET_WARMUP_END:
        this.fleet!.handle(kind, arg, now);
        break;
      default:
        throw new Error(`unknown cluster event kind ${kind}`);
    }
    return true;
  }

  private admit(req: SimRequest, now: number): void {
    const st = this.state;
    st.prepare(now);
    const decision = this.setup.admission.admit(req.view, st);
    this.setup.observer?.onAdmission?.(req, decision, st, now);
    if (!decision.admit) {
      this.exits.reject(req, now, req);
      if (this.listening) tellRouter(this.router, 'dropped', now, req.view, undefined, 'rejected');
      return;
    }
    // A redirected request comes through here again: a router's hint still stands.
    const score = req.priorityHinted ? req.view.priority : this.setup.priority.priority(req.view, now);
    req.view.priority = score;
    this.setup.observer?.onPriority?.(req, score, now);
    if (this.flow !== undefined) {
      this.admittedAt.set(req, now);
      this.flow.admit(req, now);
      return;
    }
    this.route(req, now);
  }

  private route(req: SimRequest, now: number): void {
    if (this.pd !== undefined) {
      this.pd.route(req, now);
      return;
    }
    const view = this.routable;
    if (view !== undefined) {
      this.routeAmongRoutable(req, view, now);
      return;
    }
    const st = this.state;
    st.prepare(now);
    const decision = this.setup.routing.route(req.view, st);
    if (decision.reject === true) {
      this.exits.rejectedByRouter(req, now, this.setup.routing, decision.reason);
      return;
    }
    const target = decision.instance;
    if (!Number.isInteger(target) || target < 0 || target >= this.instances.length)
      throw new InvariantViolation('routing', `policy ${this.setup.routing.name} chose instance ${target} of ${this.instances.length}`);
    this.setup.observer?.onRouting?.(req, decision, st, now);
    noteRouted(req, decision, this.setup.routing, target, now, this.setup.observer, this.listening);
    this.dispatchTo(req, target, now);
  }

  /** With a lifecycle the router sees only routable replicas; with none, the request waits. */
  private routeAmongRoutable(req: SimRequest, view: PoolView, now: number): void {
    if (view.instances.length === 0) {
      this.lifecycle!.hold(req, false);
      return;
    }
    this.state.prepare(now);
    const decision = this.setup.routing.route(req.view, view);
    if (decision.reject === true) {
      this.exits.rejectedByRouter(req, now, this.setup.routing, decision.reason);
      return;
    }
    const pos = decision.instance;
    if (!Number.isInteger(pos) || pos < 0 || pos >= view.instances.length)
      throw new InvariantViolation('routing', `policy ${this.setup.routing.name} chose position ${pos} of ${view.instances.length} routable instances`);
    this.setup.observer?.onRouting?.(req, decision, view, now);
    noteRouted(req, decision, this.setup.routing, view.members[pos], now, this.setup.observer, this.listening);
    this.dispatchTo(req, view.members[pos], now);
  }

  private dispatchTo(req: SimRequest, target: number, now: number): void {
    // A P/D part is never evicted alone: its parent's accounting spans both pools.
    if (req.part === RequestPart.Whole) this.flow?.routed(req, target, now);
    this.state.dispatched(target, req.spec.tenantId);
    this.routedTo[target]++;
    this.fleet?.onRouted(req.spec.index, target);
    const lat = this.setup.routingLatencyUs;
    if (lat > 0) {
      this.injectTarget.set(req.slot, target);
      this.events.push(now + lat, this.clsInject, INJECT, req.slot);
    } else {
      this.admittedAt.delete(req);
      this.instances[target].inject(req, now);
    }
  }
}
