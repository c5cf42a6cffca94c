import {
  ClockRegressionError,
  type InstanceConfig,
  InstanceSimulator,
  InvariantViolation,
  RequestPart,
  RequestState,
  type SimRequest,
} from '@blis/engine';
import {
  EventKind,
  EventQueue,
  GrowableFloat64,
  RequestTable,
  clusterClass,
  instanceOfClass,
} from '@blis/engine/internal';
import type { PoolType, RoutingPolicy } from '@blis/policies';
import { FC_EVICT, FC_TICK, FC_TTL, FlowController, type FlowHost } from './flow-control/flow-controller.js';
import { CompletionLog, Interner, type SessionStats } from './completion-log.js';
import type { ClusterCounters, ClusterSetup } from './cluster-setup.js';
import { LiveSnapshot } from './instance-snapshot.js';
import { ClusterRouterState } from './router-state.js';
import { ENCODE_REJECTED_DETAIL } from './encode/encode-stage.js';
import { PD_PREFILL_ROUTING, PD_TRANSFER_DONE, PD_TRANSFER_START, PdCoordinator, type PdHost } from './pd/pd-coordinator.js';
import type { PoolView } from './pd/pool-view.js';
import { FLEET_ACTUATE, FLEET_LOADED, FLEET_NODE_READY, FLEET_TICK, FLEET_WARMUP_END, type Fleet } from './autoscale/fleet.js';
import type { Autoscaler } from './autoscale/autoscaler.js';
import { ClusterLifecycle, retireTerminated } from './autoscale/cluster-lifecycle.js';
import { TimeSeriesRecorder } from './timeseries/timeseries-recorder.js';
import { forEachLiveRequest, type LeftRequest } from './request-outcomes.js';
import { anyRouterListens, noteRouted, tellLeft, tellRouter } from './router-hooks.js';

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
  /** Whether instances serve LoRA adapters (the completion log then keeps each request's adapter). */
  private readonly servesAdapters: boolean;
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
  endUs = 0;

  /** The goodput recorder of the run, when some SLO class is gated. */
  get goodput(): ClusterSetup['goodput'] {
    return this.setup.goodput;
  }

  private readonly setup: ClusterSetup;
  private readonly events = new EventQueue(4096);
  private readonly table = new RequestTable();
  /** The flow-control gateway between admission and routing, when it is on. */
  readonly flow: FlowController | undefined;
  private readonly admittedAt = new Map<SimRequest, number>();
  private clock = 0;
  /** Tick of the last event that did something (see `run`). */
  private lastActiveUs = 0;
  /** When a request last did anything: the autoscaler pauses when none has for a while. */
  private requestActivityUs = 0;
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
  /** The time series' next grid point; Infinity without one, so the check in `advance` never fires. */
  private nextSampleUs = Number.POSITIVE_INFINITY;

  constructor(setup: ClusterSetup) {
    this.setup = setup;
    this.servesAdapters = setup.instances.some((c) => c.lora !== undefined);
    this.left = setup.recordRequestIds === true ? [] : undefined;
    this.instances = [];
    this.snapshots = [];
    this.routedTo = [];
    for (const cfg of setup.instances) this.addInstance(cfg, setup.pd?.layout[cfg.index] ?? 'monolithic');
    const fc = setup.flowControl;
    const sat = setup.saturation;
    this.state = new ClusterRouterState(this.snapshots, setup.snapshotRefreshIntervalUs, sat?.queueDepthThreshold ?? 5, sat?.kvUtilizationThreshold ?? 0.8, setup.cacheSignalDelayUs ?? 0);
    this.flow = fc === undefined ? undefined : new FlowController(fc, this.flowHost());
    this.router = setup.pd?.decodeRouting ?? setup.routing;
    this.listening = anyRouterListens([setup.routing, setup.pd?.prefillRouting, setup.pd?.decodeRouting]);
    this.pd = setup.pd === undefined ? undefined : new PdCoordinator(setup.pd, this.pdHost());
    const lc = setup.lifecycle;
    if (lc !== undefined) {
      this.lifecycle = new ClusterLifecycle(lc, {
        instances: this.instances,
        snapshots: this.snapshots,
        state: this.state,
        events: this.events,
        observer: setup.observer,
        pd: this.pd,
        addInstance: (cfg, pool) => this.addInstance(cfg, pool),
        route: (req, now) => this.route(req, now),
        drained: (req, now) => this.onLeft(req, now, 'drained'),
        redirect: (req, now) => this.redirect(req, now),
        liveRequests: () => this.table.size,
        arrivalsLeft: () => setup.source.peekArrivalUs() !== Number.POSITIVE_INFINITY,
        requestActivityUs: () => this.requestActivityUs,
        gatewayLength: () => this.flow?.queue.length ?? 0,
      });
      this.fleet = this.lifecycle.fleet;
      this.autoscaler = this.lifecycle.autoscaler;
      this.routable = this.lifecycle.routable;
      this.lifecycle.start();
    }
    const ts = setup.timeseries;
    this.timeseries = ts === undefined ? undefined : new TimeSeriesRecorder(ts.intervalUs, ts.maxSamples, this);
    if (this.timeseries !== undefined) this.nextSampleUs = this.timeseries.nextUs;
  }

  /** Builds an instance and what the router keeps for it. */
  private addInstance(cfg: InstanceConfig, pool: PoolType): void {
    const obs = this.setup.observer;
    const inst = new InstanceSimulator(cfg, this.events, (slot: number) => this.table.get(slot), {
      onCompleted: (req, now) => this.onCompleted(req, now),
      onDropped: (req, now) => this.onLeft(req, now, 'dropped'),
      onTimedOut: (req, now) => this.onLeft(req, now, 'timed_out'),
      onQueued: obs?.onQueued?.bind(obs),
      onScheduled: obs?.onScheduled?.bind(obs),
      onPreempted: obs?.onPreempted?.bind(obs),
      onStep: obs?.onStep?.bind(obs),
    });
    const i = cfg.index;
    const onKv = obs?.onKvTransfer;
    if (onKv !== undefined)
      inst.kvTiers?.watch({
        onReload: (hash, now) => onKv.call(obs, hash, 'reload', now, i),
        onCpuEvict: (hash, storedAt, now) => onKv.call(obs, hash, 'cpu_evict', now, i, storedAt),
        onPromotionRefused: (hash, now) => onKv.call(obs, hash, 'promotion_refused', now, i),
      });
    const delayed = (this.setup.cacheSignalDelayUs ?? 0) > 0;
    this.instances.push(inst);
    this.snapshots.push(new LiveSnapshot(inst, delayed ? inst.kv.openPrefixSignal() : undefined, pool));
    this.routedTo.push(0);
  }

  /** A `redirect` drain took `req` off its replica's queue: it goes through admission again. */
  private redirect(req: SimRequest, now: number): void {
    const pd = this.pd;
    this.state.finished(req.instance, req.spec.tenantId);
    (pd?.policyFor(req) ?? this.setup.routing).onComplete?.(req.view, req.instance);
    this.counters.redirected++;
    req.instance = -1;
    req.state = RequestState.Pending;
    this.admittedAt.set(req, now);
    if (req.part === RequestPart.Prefill) {
      pd!.routePrefill(req, now);
      return;
    }
    const lat = this.setup.admissionLatencyUs;
    if (lat > 0) this.events.push(now + lat, this.clsAdmission, ADMISSION, req.slot);
    else this.admit(req, now);
  }

  private pdHost(): PdHost {
    return {
      instances: this.instances,
      state: this.state,
      table: this.table,
      events: this.events,
      observer: this.setup.observer,
      dispatchTo: (req, target, now) => this.dispatchTo(req, target, now),
      countDispatch: (req, target) => {
        this.state.dispatched(target, req.spec.tenantId);
        this.routedTo[target]++;
        this.fleet?.onRouted(req.spec.index, target);
      },
      hold: (req, prefill) => this.lifecycle!.hold(req, prefill),
      gone: (i) => this.fleet?.isTerminated(i) ?? false,
      drained: (req, now) => this.onLeft(req, now, 'drained'),
      goneReleased: (i) => retireTerminated(this.instances[i]),
      decodeReleased: (i, now) => {
        if (this.fleet?.isDraining(i)) this.fleet.onLeft(i, now);
      },
      replaceInTransit: (old, next) => {
        const at = this.admittedAt.get(old);
        this.admittedAt.delete(old);
        if (at !== undefined) this.admittedAt.set(next, at);
      },
      releasePart: (part, now, policy) => this.finish(part, now, policy, undefined),
      parentLeft: (parent, now, outcome) => this.parentLeft(parent, now, outcome),
      listening: this.listening,
      rejected: (req, now, policy, reason, parent) => this.rejectedByRouter(req, now, policy, reason, parent),
      encodeRejected: (req, now) => {
        this.reject(req, now, req, 'encode', ENCODE_REJECTED_DETAIL);
        if (this.listening) tellRouter(this.router, 'dropped', now, req.view, undefined, 'rejected');
      },
    };
  }

  private flowHost(): FlowHost {
    return {
      events: this.events,
      snapshots: (now) => {
        this.state.prepare(now);
        const members = this.state.routable;
        return members === undefined ? this.snapshots : members.map((i) => this.snapshots[i]);
      },
      route: (req, now) => {
        this.gatewayDelayUs.push(now - (this.admittedAt.get(req) ?? now));
        this.route(req, now);
      },
      turnAway: (req, now, outcome, detail) => {
        this.reject(req, now, req, outcome, detail);
        if (this.listening) tellRouter(this.router, 'dropped', now, req.view, undefined, 'shed');
      },
      evict: (req, instance, now) => {
        if (!this.instances[instance].evict(req)) return false;
        this.counters.evicted++;
        this.autoscaler?.requestLeft(now);
        this.left?.push({ req, outcome: 'evicted', atUs: now });
        this.setup.observer?.onDropped?.(req, now, 'shed', 'in-flight eviction');
        this.finish(req, now, this.setup.routing, req, 'dropped');
        return true;
      },
      // Stale snapshots may still change on refresh: only a fresh view of an idle pool is final.
      quiet: (now) => this.events.size === 0 && this.setup.source.peekArrivalUs() === Number.POSITIVE_INFINITY && this.state.freshAt(now),
    };
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
    for (;;) {
      const nextArrival = source.peekArrivalUs();
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
    if (this.instances[inst].handle(ev.poppedKind, ev.poppedArg, t)) {
      this.lastActiveUs = t;
      this.requestActivityUs = t;
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
    this.onLeft(this.table.get(arg), now, 'drained');
    this.lastActiveUs = now;
  }

  /** Conservation (INV-1) over the whole cluster; throws InvariantViolation when it fails. */
  checkConservation(): void {
    const c = this.counters;
    const live = this.table.size + (this.pd?.awaitingStart ?? 0);
    let inWaitQueues = 0;
    for (const i of this.instances) inWaitQueues += i.queueDepth;
    if (inWaitQueues > this.stillQueued())
      throw new InvariantViolation('INV-1', `${inWaitQueues} requests in wait queues but only ${this.stillQueued()} live requests are queued`);
    const rhs = c.completed + c.dropped + c.rejected + c.timedOut + c.shed + c.expired + c.evicted + c.drainedDropped + c.encodeRejected + live;
    if (rhs !== c.injected)
      throw new InvariantViolation(
        'INV-1',
        `injected ${c.injected} != completed ${c.completed} + dropped ${c.dropped} + rejected ${c.rejected} + timed out ${c.timedOut} + shed ${c.shed} + expired ${c.expired} + evicted ${c.evicted} + drained ${c.drainedDropped} + encode-rejected ${c.encodeRejected} + still in the system ${live}`,
      );
    const enc = this.pd?.encode;
    if (enc !== undefined && enc.stats.rejections !== c.encodeRejected)
      throw new InvariantViolation('INV-1', `the encode stage rejected ${enc.stats.rejections} requests, the cluster counts ${c.encodeRejected}`);
    this.pd?.checkInvariants();
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
      this.reject(req, now, req);
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
      this.rejectedByRouter(req, now, this.setup.routing, decision.reason);
      return;
    }
    const target = decision.instance;
    if (!Number.isInteger(target) || target < 0 || target >= this.instances.length)
      throw new InvariantViolation('routing', `policy ${this.setup.routing.name} chose instance ${target} of ${this.instances.length}`);
    this.setup.observer?.onRouting?.(req, decision, st, now);
    noteRouted(req, decision, this.setup.routing, target, now, this.setup.observer, this.listening);
    this.dispatchTo(req, target, now);
  }

  /** Takes a rejected (or shed) request out of the system; `as` is the request the user sent. */
  private reject(req: SimRequest, now: number, as: SimRequest, status: 'rejected' | 'shed' | 'expired' | 'encode' = 'rejected', detail?: string): void {
    this.admittedAt.delete(req);
    if (status === 'shed') this.counters.shed++;
    else if (status === 'expired') this.counters.expired++;
    else if (status === 'encode') this.counters.encodeRejected++;
    else this.counters.rejected++;
    this.autoscaler?.requestLeft(now);
    req.state = RequestState.Rejected;
    as.state = RequestState.Rejected;
    this.left?.push({ req: as, outcome: status === 'encode' ? 'rejected' : status, atUs: now });
    // The trace knows a gateway expiry as shed, with the reason in its detail.
    const traced = status === 'expired' ? 'shed' : status === 'encode' ? 'rejected' : status;
    if (detail === undefined) this.setup.observer?.onDropped?.(as, now, traced);
    else this.setup.observer?.onDropped?.(as, now, traced, detail);
    this.table.remove(req);
    this.setup.source.onRequestDone?.(as.spec, now, 'rejected');
  }

  /**
   * A router refused `req` (RouteSim's `Reject`): counted with admission rejections. Under P/D
   * `req` may be a prefill part: its parent is rejected with it, and both routers hear of it.
   */
  private rejectedByRouter(req: SimRequest, now: number, policy: RoutingPolicy, reason: string, parent?: SimRequest): void {
    this.reject(req, now, parent ?? req, 'rejected', reason);
    if (!this.listening) return;
    tellRouter(policy, 'dropped', now, req.view, undefined, 'rejected');
    if (parent !== undefined) tellRouter(this.router, 'dropped', now, parent.view, undefined, 'rejected');
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
      this.rejectedByRouter(req, now, this.setup.routing, decision.reason);
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

  private onCompleted(req: SimRequest, now: number): void {
    const pd = this.pd;
    if (pd !== undefined && req.part !== RequestPart.Whole) {
      if (req.part === RequestPart.Prefill) pd.prefillDone(req, now);
      else {
        // The parent completed: it is logged under its own id, with its prefill's scheduling
        // delay and cache hits (BLIS's projection onto the parent).
        const p = pd.decodeDone(req, now);
        this.logCompletion(req, now, p.parent, p.prefillSchedulingDelayUs, p.prefillCacheHitBlocks, p.prefillPreemptions + req.preemptions);
        this.finish(req, now, pd.setup.decodeRouting, p.parent, 'completed');
      }
      return;
    }
    this.logCompletion(req, now, req, req.scheduledAt - req.spec.arrivalUs, req.cacheHitBlocks, req.preemptions);
    this.finish(req, now, pd?.setup.decodeRouting ?? this.setup.routing, req, 'completed');
  }

  /**
   * Logs a completion: `req` ran it on its instance, `as` is the request the user sent (itself,
   * or under P/D the parent of a decode part).
   */
  private logCompletion(req: SimRequest, now: number, as: SimRequest, schedulingDelayUs: number, cacheHitBlocks: number, preemptions: number): void {
    this.counters.completed++;
    const log = this.log;
    const m = this.instances[req.instance].metrics;
    let e2e = m.e2eUs.get(m.e2eUs.length - 1);
    let ttft = req.ttft;
    const fleet = this.fleet;
    if (fleet !== undefined) {
      // A request served warming up is slower by the warm-up factor; its E2E by as much, so
      // that TTFT never exceeds E2E (BLIS inflates TTFT alone).
      const f = fleet.warmFactor(req.spec.index);
      if (f !== 1) {
        e2e += (f - 1) * ttft;
        ttft *= f;
      }
      fleet.onCompleted(req.instance, now);
      this.autoscaler?.requestLeft(now);
      this.autoscaler?.onCompleted(fleet.replicas[req.instance].group, this.setup.lifecycle!.metTargets(req.spec.sloTargetUs, ttft, e2e));
    }
    log.instance.push(req.instance);
    log.sloClass.push(this.sloNames.code(req.spec.sloClass));
    log.tenant.push(this.tenantNames.code(req.spec.tenantId));
    log.ttftUs.push(ttft);
    log.e2eUs.push(e2e);
    log.sloTargetUs.push(req.spec.sloTargetUs);
    log.networkDelayUs.push(req.spec.networkDelayUs);
    log.outputTokens.push(req.outputTokens);
    log.inputTokens.push(req.inputTokens);
    log.arrivalUs.push(req.spec.arrivalUs);
    log.itlUs.push(m.itlUs.get(m.itlUs.length - 1));
    log.schedulingDelayUs.push(schedulingDelayUs);
    log.completionUs.push(now);
    log.cacheHitBlocks.push(cacheHitBlocks);
    log.preemptions.push(preemptions);
    if (this.setup.recordRequestIds) log.ids.push(as.spec.id);
    this.setup.goodput?.onCompleted(as.spec, ttft, m.itlUs.get(m.itlUs.length - 1), e2e);
    if (this.servesAdapters) {
      const a = as.spec.adapter;
      log.adapter.push(a === undefined || a === '' ? -1 : log.adapterNames.code(a));
    }
    if (req.spec.sessionId !== '') {
      const st = this.sessions.get(req.spec.sessionId);
      if (st === undefined) this.sessions.set(req.spec.sessionId, { startUs: req.spec.arrivalUs, endUs: now, rounds: 1 });
      else {
        st.rounds++;
        if (req.spec.arrivalUs < st.startUs) st.startUs = req.spec.arrivalUs;
        if (now > st.endUs) st.endUs = now;
      }
    }
    this.setup.observer?.onCompleted?.(as, now, e2e);
  }

  private onLeft(req: SimRequest, now: number, outcome: 'dropped' | 'timed_out' | 'drained'): void {
    const pd = this.pd;
    if (pd !== undefined && req.part !== RequestPart.Whole) {
      const policy = pd.policyFor(req);
      const p = pd.partLeft(req, now);
      this.noteLeft(p.parent, now, outcome);
      this.finish(req, now, policy, p.parent, outcome);
      return;
    }
    this.noteLeft(req, now, outcome);
    this.finish(req, now, pd?.setup.decodeRouting ?? this.setup.routing, req, outcome);
  }

  private noteLeft(req: SimRequest, now: number, outcome: 'dropped' | 'timed_out' | 'drained'): void {
    if (outcome === 'dropped') this.counters.dropped++;
    else if (outcome === 'timed_out') this.counters.timedOut++;
    else this.counters.drainedDropped++;
    this.autoscaler?.requestLeft(now);
    this.left?.push({ req, outcome: outcome === 'dropped' ? 'dropped_unservable' : outcome, atUs: now });
    this.setup.observer?.onDropped?.(req, now, outcome === 'dropped' ? 'unservable' : outcome);
  }

  /** A P/D parent left between its parts (no slot, nothing in flight): count it, tell the source. */
  private parentLeft(parent: SimRequest, now: number, outcome: 'dropped' | 'timed_out' | 'drained'): void {
    this.noteLeft(parent, now, outcome);
    this.setup.source.onRequestDone?.(parent.spec, now, outcome === 'drained' ? 'dropped' : outcome);
    if (this.listening) tellRouter(this.router, 'dropped', now, parent.view, undefined, outcome === 'dropped' ? 'unservable' : outcome);
  }

  /**
   * Frees what `req` held at the router (its in-flight count, the policy's hook) and its slot;
   * when the request the user sent (`as`) is done, tells the source.
   */
  private finish(req: SimRequest, now: number, policy: RoutingPolicy, as: SimRequest | undefined, outcome?: 'completed' | 'dropped' | 'timed_out' | 'drained'): void {
    this.flow?.left(req);
    this.state.finished(req.instance, req.spec.tenantId);
    policy.onComplete?.(req.view, req.instance);
    if (this.listening) tellLeft(req, now, policy, this.router, as, outcome);
    this.table.remove(req);
    this.fleet?.onLeft(req.instance, now);
    if (as !== undefined) this.setup.source.onRequestDone?.(as.spec, now, outcome === 'drained' ? 'dropped' : outcome!);
  }
}
