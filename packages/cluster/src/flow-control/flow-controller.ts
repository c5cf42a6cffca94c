import { InvariantViolation, type SimRequest } from '@blis/engine';
import type { EventQueue } from '@blis/engine/internal';
import type { InstanceSnapshot } from '@blis/policies';
import { EvictionTracker } from './eviction-tracker.js';
import type { FlowControlSettings } from './flow-control-settings.js';
import { globalStrict, roundRobin } from './flow-fairness.js';
import { GatewayBands, type Waiting } from './gateway-bands.js';

/** Cluster event kinds of flow control, and their same-tick classes (BLIS's priorities 5, 6, 7). */
export const FC_EVICT = 13;
export const FC_TTL = 14;
export const FC_TICK = 15;
const CLS_EVICT = 5;
const CLS_TTL = 6;
const CLS_TICK = 7;

/** What flow control needs from the cluster. */
export interface FlowHost {
  readonly events: EventQueue;
  /** The routable instances as the router sees them now (snapshots refreshed per their interval). */
  snapshots(now: number): readonly InstanceSnapshot[];
  /** Routes a request the gateway let go. */
  route(req: SimRequest, now: number): void;
  /** Takes a request out of the system: turned away or displaced (`shed`), or expired in the queue. */
  turnAway(req: SimRequest, now: number, outcome: 'shed' | 'expired', detail: string): void;
  /** Ends a running or queued request on its instance; false when it is not there (yet). */
  evict(req: SimRequest, instance: number, now: number): boolean;
  /** True when no event is pending, no arrival is to come and the pool was read fresh at `now`: nothing can change any more. */
  quiet(now: number): boolean;
}

/** Counts of what the gateway did, for the result. */
export interface FlowCounts {
  enqueued: number;
  /** Turned away at enqueue: its band or the whole queue was full. */
  queueRejected: number;
  /** Displaced from a full queue by a more urgent newcomer (--queue-shedding). */
  queueShed: number;
  /** Expired in the queue (--request-ttl). */
  expired: number;
  /** Evicted from an instance (--in-flight-eviction). */
  evicted: number;
  /** Largest number of requests held in one band at any time. */
  maxBandLength: number;
}

/**
 * The gateway between admission and routing (GIE's flow controller, as BLIS models it): admitted
 * requests wait in priority bands and per-tenant flows; one is dispatched per attempt, attempts
 * being made on every enqueue and every dispatch tick while requests wait, and only while the
 * saturation detector says the pool has room.
 */
export class FlowController {
  readonly counts: FlowCounts = { enqueued: 0, queueRejected: 0, queueShed: 0, expired: 0, evicted: 0, maxBandLength: 0 };
  readonly queue: GatewayBands;
  /** µs each dispatched request waited at the gateway, by request id (for per-request records). */
  readonly delays = new Map<string, number>();
  private readonly s: FlowControlSettings;
  private readonly host: FlowHost;
  private readonly tracker: EvictionTracker | undefined;
  private readonly pendingEvictions = new Map<number, { req: SimRequest; instance: number }>();
  private seq = 0;
  private tickPending = false;

  constructor(settings: FlowControlSettings, host: FlowHost) {
    this.s = settings;
    this.host = host;
    this.queue = new GatewayBands({
      maxDepth: settings.maxQueueDepth,
      perBandCapacity: settings.perBandCapacity,
      shedding: settings.queueShedding,
      usageLimitThreshold: settings.usageLimitThreshold,
      sloDeadline: settings.dispatchOrder === 'slo-deadline',
      fairness: settings.fairness === 'round-robin' ? roundRobin() : globalStrict(),
    });
    this.tracker = settings.inFlightEviction ? new EvictionTracker() : undefined;
  }

  /** An admitted request reaches the gateway: it waits, or is turned away when its band or the queue is full. */
  admit(req: SimRequest, now: number): void {
    const s = this.s;
    const priority = s.priorities.priority(req.spec.sloClass);
    const target = req.spec.sloTargetUs > 0 ? req.spec.sloTargetUs : s.sloTargetsUs[req.spec.sloClass];
    const w: Waiting = {
      req,
      seq: ++this.seq,
      enqueuedUs: now,
      priority,
      tenant: req.spec.tenantId === '' ? 'default' : req.spec.tenantId,
      deadlineUs: target !== undefined && target > 0 ? now + target : Number.POSITIVE_INFINITY,
    };
    const out = this.queue.enqueue(w);
    if (out.kind === 'rejected') {
      this.counts.queueRejected++;
      this.host.turnAway(req, now, 'shed', out.why === 'band-full' ? 'gateway band full' : 'gateway queue full');
      return;
    }
    this.counts.enqueued++;
    const len = this.queue.bandLength(priority);
    if (len > this.counts.maxBandLength) this.counts.maxBandLength = len;
    if (out.kind === 'displaced') {
      this.counts.queueShed++;
      this.host.turnAway(out.victim.req, now, 'shed', 'displaced from the full gateway queue');
    }
    if (s.requestTtlUs > 0) this.host.events.push(now + s.requestTtlUs, CLS_TTL, FC_TTL, req.spec.index);
    this.tryDispatch(now);
  }

  /** Runs one of flow control's events; false when it changed nothing. */
  handle(kind: number, arg: number, now: number): boolean {
    switch (kind) {
      case FC_TICK:
        return this.onTick(now);
      case FC_TTL: {
        const w = this.queue.take(arg);
        if (w === undefined) return false;
        this.counts.expired++;
        this.host.turnAway(w.req, now, 'expired', 'gateway TTL expired');
        return true;
      }
      case FC_EVICT: {
        const p = this.pendingEvictions.get(arg)!;
        this.pendingEvictions.delete(arg);
        if (!this.host.evict(p.req, p.instance, now)) return false;
        this.counts.evicted++;
        return true;
      }
      default:
        throw new Error(`unknown flow-control event kind ${kind}`);
    }
  }

  /** A request the gateway let go was sent to `instance` at `now`: a sheddable one becomes evictable. */
  routed(req: SimRequest, instance: number, now: number): void {
    const t = this.tracker;
    if (t === undefined) return;
    const pri = this.s.priorities.priority(req.spec.sloClass);
    if (pri < 0) t.track(req, pri, now, instance);
  }

  /** A request left its instance (completed, dropped, timed out): no longer evictable. */
  left(req: SimRequest): void {
    this.tracker?.untrack(req);
  }

  private onTick(now: number): boolean {
    const before = this.queue.length;
    if (before > 0) this.tryDispatch(now);
    // A pool that holds the queue while nothing else can ever happen would hold it forever (BLIS
    // ticks on to its horizon): the ticker stops, and the run ends with these requests still queued.
    if (this.queue.length > 0 && !this.host.quiet(now)) this.host.events.push(now + this.s.dispatchTickIntervalUs, CLS_TICK, FC_TICK, -1);
    else this.tickPending = false;
    return this.queue.length !== before;
  }

  /** One dispatch attempt (GIE's dispatch cycle): at most one request leaves the queue. */
  private tryDispatch(now: number): void {
    const q = this.queue;
    if (q.length === 0) return;
    if (!this.tickPending) {
      this.tickPending = true;
      this.host.events.push(now + this.s.dispatchTickIntervalUs, CLS_TICK, FC_TICK, -1);
    }
    const sat = this.s.detector.saturation(this.host.snapshots(now));
    if (!Number.isFinite(sat)) throw new InvariantViolation('flow-control', `saturation detector ${this.s.detector.name} returned ${sat}`);
    const tracker = this.tracker;
    if (sat >= this.s.saturationLimit && tracker !== undefined && tracker.length > 0 && q.hasNonSheddable()) {
      const v = tracker.pop()!;
      this.pendingEvictions.set(v.req.slot, v);
      this.host.events.push(now, CLS_EVICT, FC_EVICT, v.req.slot);
      return;
    }
    const w = q.dequeue(sat, this.s.saturationLimit);
    if (w === undefined) return;
    this.delays.set(w.req.spec.id, now - w.enqueuedUs);
    this.host.route(w.req, now);
  }
}
