import type { EventQueue } from '@blis/engine/internal';
import type { AutoScaleContext, AutoScalePolicy, LoadSample, ReplicaMetrics } from '@blis/policies';
import type { DecisionObserver, ScaleOutcome } from '@blis/trace';
import type { ClusterRouterState } from '../router-state.js';
import { checkAutoscalerTicks } from '../limits/autoscaler-ticks.js';
import { type FleetCeiling, checkScaleUp } from '../limits/fleet-ceiling.js';
import { type AutoscalingConfig, sampleDelay } from './autoscale-schema.js';
import { FLEET_ACTUATE, FLEET_TICK, type Fleet } from './fleet.js';
import { InstanceState } from './lifecycle-state.js';

const HISTORY = 16;

/** What the autoscaler reads from the cluster besides the fleet. */
export interface AutoscalerHost {
  readonly events: EventQueue;
  readonly state: ClusterRouterState;
  readonly observer: DecisionObserver | undefined;
  /** Requests admitted but waiting for a routable replica of this pool (plus the gateway queue). */
  waiting(pool: string): number;
  /** Anything left to do: requests in the system or arrivals to come. */
  busy(): boolean;
  /** Arrivals are still to come. */
  arrivalsLeft(): boolean;
  /** When a request last did anything (arrived, was admitted or routed, stepped, moved its KV). */
  requestActivityUs(): number;
  /**
   * Only the autoscaler can change anything: no arrivals to come, and every request left is
   * waiting for a replica that nobody is starting.
   */
  stalled(): boolean;
}

interface GroupState {
  readonly policy: AutoScalePolicy;
  upSince: number | undefined;
  downSince: number | undefined;
  lastActionUs: number;
  lastDirection: number;
  readonly history: LoadSample[];
  completed: number;
  met: number;
}

/** Counters of what the autoscaler did. */
export interface AutoscalerStats {
  evaluations: number;
  scaleUpEvents: number;
  scaleDownEvents: number;
  replicasAdded: number;
  replicasDrained: number;
  oscillations: number;
}

/**
 * BLIS's tick pipeline with a policy of choice: every interval each scaling group is measured,
 * its policy proposes a delta, the replica bounds clamp it, the stabilization window of its
 * direction gates it (a signal must persist that long), the cooldown holds it after an action,
 * and a passing decision is carried out after the scrape delay, clamped again then.
 */
export class Autoscaler {
  readonly stats: AutoscalerStats = { evaluations: 0, scaleUpEvents: 0, scaleDownEvents: 0, replicasAdded: 0, replicasDrained: 0, oscillations: 0 };
  readonly config: AutoscalingConfig;
  private readonly groups: GroupState[];
  private readonly fleet: Fleet;
  private readonly host: AutoscalerHost;
  private readonly normal: () => number;
  private readonly pending = new Map<number, { group: number; delta: number }>();
  private nextActuation = 0;
  /** Evaluations in a row, past the last arrival, with no request activity since the previous one. */
  private idleTicks = 0;
  private lastActivityUs = Number.NaN;
  private lastTickUs = -0; // a double from the start (see EventQueue.poppedTime in @blis/engine)
  /** Evaluation ticks so far, held to the run's limit. */
  private ticks = 0;
  /** The evaluations stopped while nothing was happening to any request; one leaving resumes them. */
  private paused = false;
  /** How many such evaluations end the ticks: a decision still on its way has had time to pass. */
  readonly idleTickLimit: number;
  private readonly maxReplicas: number;
  /** Reversals within this long of the previous action count as oscillations. */
  readonly oscillationWindowUs: number;

  private readonly ceiling: FleetCeiling | undefined;

  constructor(config: AutoscalingConfig, policies: readonly AutoScalePolicy[], fleet: Fleet, host: AutoscalerHost, normal: () => number, ceiling?: FleetCeiling) {
    this.config = config;
    this.ceiling = ceiling;
    this.fleet = fleet;
    this.host = host;
    this.normal = normal;
    this.maxReplicas = config.maxReplicas ?? Number.POSITIVE_INFINITY;
    this.oscillationWindowUs = Math.max(config.scaleUpStabilizationWindowUs, config.scaleDownStabilizationWindowUs, config.intervalUs, config.cooldownUs);
    const gates = Math.max(config.scaleUpStabilizationWindowUs, config.scaleDownStabilizationWindowUs, config.cooldownUs);
    this.idleTickLimit = Math.ceil(gates / config.intervalUs) + HISTORY + 1;
    this.groups = policies.map((policy) => ({
      policy,
      upSince: undefined,
      downSince: undefined,
      lastActionUs: Number.NEGATIVE_INFINITY,
      lastDirection: 0,
      history: [],
      completed: 0,
      met: 0,
    }));
  }

  /** The name of the policy that runs (a custom object's own name, not the configured one). */
  get policyName(): string {
    return [...new Set(this.groups.map((g) => g.policy.name))].join(', ');
  }

  /** Each scaling group's policy object and pool (custom metrics are collected from them). */
  get policies(): { pool: string; policy: AutoScalePolicy }[] {
    return this.groups.map((g, i) => ({ pool: this.fleet.settings.groups[i].pool, policy: g.policy }));
  }

  /** The first evaluation is at t = 0, as in BLIS. */
  start(): void {
    this.host.events.push(0, FLEET_TICK, FLEET_TICK, -1);
  }

  /** A request of scaling group `g` completed; `met` whether it met its latency targets (undefined: it had none). */
  onCompleted(g: number, met: boolean | undefined): void {
    if (g < 0 || met === undefined) return;
    const s = this.groups[g];
    s.completed++;
    if (met) s.met++;
  }

  /** An evaluation tick; the next one is scheduled unless nothing is left to scale for. */
  tick(now: number): void {
    checkAutoscalerTicks(++this.ticks, this.config.intervalUs, now);
    this.host.state.prepare(now);
    this.lastTickUs = now;
    // Idle: past the last arrival, and no request did anything since the previous evaluation:
    // every request left waits for a replica. A policy may keep deciding without ever making
    // one routable (asking to scale down a pool whose only replica is still warming up, or
    // cancelling its own scale-ups before they load). Once that has lasted past every gate and
    // a full history, the evaluations pause; the replicas already on their way still come.
    const activity = this.host.requestActivityUs();
    this.idleTicks = activity === this.lastActivityUs && !this.host.arrivalsLeft() ? this.idleTicks + 1 : 0;
    this.lastActivityUs = activity;
    let acting = false;
    for (let g = 0; g < this.groups.length; g++) if (this.evaluate(g, now) !== 'hold') acting = true;
    // BLIS stops ticking once the run has nothing left to do; so do we, so that ticks never
    // stretch the run past its last request. Requests held for a replica that the policy will
    // not start stay unfinished instead of ticking forever.
    const stuck = (!acting && this.pending.size === 0 && this.host.stalled()) || this.idleTicks >= this.idleTickLimit;
    this.paused = stuck;
    if (this.host.busy() && !stuck) this.host.events.push(now + this.config.intervalUs, FLEET_TICK, FLEET_TICK, -1);
  }

  /**
   * A request left the system (completed, dropped, rejected). Paused evaluations resume on their
   * grid: a request finishing is progress, so pauses and resumptions cannot alternate forever.
   */
  requestLeft(now: number): void {
    if (!this.paused) return;
    this.paused = false;
    this.idleTicks = 0;
    if (!this.host.busy()) return;
    const every = this.config.intervalUs;
    this.host.events.push(this.lastTickUs + (Math.floor((now - this.lastTickUs) / every) + 1) * every, FLEET_TICK, FLEET_TICK, -1);
  }

  /** Carries out decision `id`; true when the fleet changed. */
  actuate(id: number, now: number): boolean {
    const a = this.pending.get(id)!;
    this.pending.delete(id);
    const g = a.group;
    const before = this.current(g);
    const delta = this.clamp(before, a.delta) - before;
    if (delta === 0) return false;
    const s = this.groups[g];
    const pool = this.fleet.settings.groups[g].pool;
    let ids: string[];
    let unplaced = 0;
    if (delta > 0) {
      checkScaleUp(this.ceiling, this.liveInstances(), delta, `scaling group ${pool} from ${before} to ${before + delta} replicas at ${now} µs`);
      ({ ids, unplaced } = this.fleet.scaleUp(g, delta, now));
      this.stats.scaleUpEvents++;
      this.stats.replicasAdded += ids.length;
    } else {
      ids = this.fleet.scaleDown(g, -delta, now);
      if (ids.length === 0) return false;
      this.stats.scaleDownEvents++;
      this.stats.replicasDrained += ids.length;
    }
    const dir = Math.sign(delta);
    if (s.lastDirection !== 0 && dir !== s.lastDirection && now - s.lastActionUs <= this.oscillationWindowUs) this.stats.oscillations++;
    s.lastDirection = dir;
    s.lastActionUs = now;
    this.host.observer?.onScaleAction?.({ pool, before, after: this.current(g), instances: ids, unplaced }, now);
    return true;
  }

  /** Instances not yet terminated, in every group: what holds memory. */
  private liveInstances(): number {
    let n = 0;
    for (const r of this.fleet.replicas) if (r.state !== InstanceState.Terminated) n++;
    return n;
  }

  /** Routable plus pending replicas of group `g`: what a decision changes. */
  private current(g: number): number {
    let n = 0;
    for (const r of this.fleet.replicas) if (r.group === g && r.state <= InstanceState.Active) n++;
    return n;
  }

  private clamp(current: number, delta: number): number {
    const lo = Math.min(this.config.minReplicas, this.maxReplicas);
    return Math.min(this.maxReplicas, Math.max(lo, current + delta));
  }

  private evaluate(g: number, now: number): ScaleOutcome {
    const s = this.groups[g];
    const ctx = this.context(g, now);
    const decision = s.policy.evaluate(ctx);
    const proposed = Number.isFinite(decision.delta) ? Math.trunc(decision.delta) : 0;
    const delta = this.clamp(ctx.currentReplicas, proposed) - ctx.currentReplicas;
    this.stats.evaluations++;
    let outcome: ScaleOutcome = 'hold';
    // BLIS's gate: a direction without a signal this tick loses its timer; a signal starts one
    // and passes once it has persisted for the window (at once for a zero window).
    if (delta <= 0) s.upSince = undefined;
    if (delta >= 0) s.downSince = undefined;
    if (delta !== 0) {
      const up = delta > 0;
      const window = up ? this.config.scaleUpStabilizationWindowUs : this.config.scaleDownStabilizationWindowUs;
      const since = (up ? s.upSince : s.downSince) ?? now;
      if (up) s.upSince = since;
      else s.downSince = since;
      if (now - since < window) outcome = 'stabilizing';
      else if (now - s.lastActionUs < this.config.cooldownUs) outcome = 'cooldown';
      else {
        outcome = 'scheduled';
        if (up) s.upSince = undefined;
        else s.downSince = undefined;
        const id = this.nextActuation++;
        this.pending.set(id, { group: g, delta });
        this.host.events.push(now + sampleDelay(this.config.scrapeDelay, this.normal), FLEET_ACTUATE, FLEET_ACTUATE, id);
      }
    }
    s.history.push({ nowUs: now, replicas: ctx.replicas.length, avgQueueDepth: ctx.avgQueueDepth, avgKvUtilization: ctx.avgKvUtilization, requestRate: ctx.requestRate });
    if (s.history.length > HISTORY) s.history.shift();
    s.completed = 0;
    s.met = 0;
    this.host.observer?.onScaleEvaluation?.(
      {
        pool: ctx.pool,
        policy: s.policy.name,
        routable: ctx.replicas.length,
        pending: ctx.pendingReplicas,
        draining: ctx.drainingReplicas,
        avgQueueDepth: ctx.avgQueueDepth,
        avgKvUtilization: ctx.avgKvUtilization,
        waitingRequests: ctx.waitingRequests,
        requestRate: ctx.requestRate,
        signals: decision.signals ?? {},
        proposed,
        delta,
        outcome,
        reason: decision.reason,
      },
      now,
    );
    return outcome;
  }

  private context(g: number, now: number): AutoScaleContext {
    const s = this.groups[g];
    const spec = this.fleet.settings.groups[g];
    const snaps = this.host.state.instances;
    const replicas: ReplicaMetrics[] = [];
    let pending = 0;
    let pendingTokens = 0;
    let draining = 0;
    let queue = 0;
    let kv = 0;
    for (const r of this.fleet.replicas) {
      if (r.group !== g) continue;
      if (r.state === InstanceState.Scheduling || r.state === InstanceState.Loading) {
        pending++;
        pendingTokens += r.spec.kvCapacityTokens;
      } else if (r.state === InstanceState.Draining) draining++;
      else if (r.state === InstanceState.WarmingUp || r.state === InstanceState.Active) {
        const snap = snaps[r.index];
        const block = snap.kv.blockSizeTokens;
        replicas.push({
          index: r.index,
          id: r.id,
          state: r.state === InstanceState.Active ? 'active' : 'warming-up',
          gpuType: spec.gpuType,
          tp: spec.tp,
          costPerHour: r.costPerHour,
          queueDepth: snap.queueDepth,
          batchSize: snap.batchSize,
          inFlightRequests: snap.inFlightRequests,
          kvUtilization: snap.kvUtilization,
          totalKvCapacityTokens: snap.totalKVBlocks * block,
          kvTokensInUse: (snap.totalKVBlocks - snap.freeKVBlocks) * block,
          startUs: r.startUs,
        });
        queue += snap.queueDepth;
        kv += snap.kvUtilization;
      }
    }
    const n = replicas.length;
    return {
      nowUs: now,
      pool: spec.pool,
      replicas,
      pendingReplicas: pending,
      pendingKvCapacityTokens: pendingTokens,
      drainingReplicas: draining,
      currentReplicas: n + pending,
      minReplicas: this.config.minReplicas,
      maxReplicas: this.maxReplicas,
      avgQueueDepth: n > 0 ? queue / n : 0,
      avgKvUtilization: n > 0 ? kv / n : 0,
      waitingRequests: this.host.waiting(spec.pool),
      requestRate: this.host.state.recentRate,
      sloAttainment: s.completed > 0 ? s.met / s.completed : null,
      timeSinceLastScaleUs: now - s.lastActionUs,
      history: s.history.slice(),
    };
  }
}
