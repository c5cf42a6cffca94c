import { RequestPart, type SimRequest } from '@blis/engine';
import type { AdmissionDecision, AdmissionPolicy, PolicyRegistry, RequestView, RouterState, RoutingDecision, RoutingPolicy } from '@blis/policies';
import { defaultPolicyRegistry } from '@blis/policies';
import type { StepBatch } from '@blis/latency';
import type { DecisionObserver, PdTransferRecord, ScaleAction } from '@blis/trace';
import { ENCODE_REJECTED_DETAIL } from '../encode/encode-stage.js';
import type { DecisionView, LogEvent, LogPart, RunFacts, RunLog } from './run-log.js';

/** Options of {@link InvariantRecorder}. */
export interface InvariantRecorderOptions {
  /** Stop the run with an error after this many non-empty steps (a livelock fails fast instead of hanging). Default 300,000. */
  maxSteps?: number;
  /** Record step events (INV-3 then sees every step's time). Default true. */
  steps?: boolean;
}

const PARTS: Record<number, LogPart> = { [RequestPart.Whole]: 'whole', [RequestPart.Prefill]: 'prefill', [RequestPart.Decode]: 'decode' };
const partOf = (r: SimRequest): LogPart => PARTS[r.part] ?? 'whole';
/** Output-length names a policy must never see (INV-9). */
const OUTPUT_KEY = /output/i;

/**
 * A {@link DecisionObserver} that logs what the cluster reports, plus policy wrappers that log
 * what each admission and routing decision was shown (INV-7, INV-9). Hand it to a run as the
 * observer, with policies from {@link InvariantRecorder.wrapRegistry} (or wrapped one by one);
 * read {@link InvariantRecorder.log} afterwards and pass it to `checkInvariants`.
 * `simulateChecked` does all of this.
 */
export class InvariantRecorder implements DecisionObserver {
  readonly log: RunLog;
  private readonly events: LogEvent[] = [];
  private readonly maxSteps: number;
  private readonly recordSteps: boolean;
  private steps = 0;
  /** The live in-flight count of an instance (INV-7's ground truth), once the cluster is built. */
  private inFlightTruth: ((index: number) => number | undefined) | undefined;

  constructor(facts: RunFacts, options: InvariantRecorderOptions = {}) {
    this.log = { facts, events: this.events };
    this.maxSteps = options.maxSteps ?? 300_000;
    this.recordSteps = options.steps ?? true;
  }

  /** Where the live in-flight counts are read from (the cluster's snapshots). */
  setInFlightTruth(truth: (index: number) => number | undefined): void {
    this.inFlightTruth = truth;
  }

  /** A registry whose admission and routing policies report each decision's view to this recorder. */
  wrapRegistry(base: PolicyRegistry = defaultPolicyRegistry): PolicyRegistry {
    const wrapped = Object.create(base) as PolicyRegistry;
    wrapped.createAdmissionPolicy = (name, ctx) => this.wrapAdmission(base.createAdmissionPolicy(name, ctx));
    wrapped.createRoutingPolicy = (name, ctx) => this.wrapRouting(base.createRoutingPolicy(name, ctx));
    return wrapped;
  }

  /** The policy, seen through a proxy that logs the view of every `admit` call. */
  wrapAdmission(policy: AdmissionPolicy): AdmissionPolicy {
    const admit = (req: RequestView, state: RouterState): AdmissionDecision => {
      this.decision('admission', req, state);
      return policy.admit(req, state);
    };
    return forward(policy, 'admit', admit);
  }

  /** The policy, seen through a proxy that logs the view of every `route` call. */
  wrapRouting(policy: RoutingPolicy): RoutingPolicy {
    const route = (req: RequestView, state: RouterState): RoutingDecision => {
      this.decision('routing', req, state);
      return policy.route(req, state);
    };
    return forward(policy, 'route', route);
  }

  private decision(stage: 'admission' | 'routing', req: RequestView, state: RouterState): void {
    const exposedKeys = Object.keys(req).filter((k) => OUTPUT_KEY.test(k));
    if ('outputTokens' in req && !exposedKeys.includes('outputTokens')) exposedKeys.push('outputTokens');
    const view: DecisionView = {
      exposedKeys,
      instances: state.instances.map((s) => {
        const truth = this.inFlightTruth?.(s.index);
        return { index: s.index, snapshotAgeUs: state.nowUs - s.snapshotTimeUs, inFlight: s.inFlightRequests, ...(truth !== undefined ? { inFlightTruth: truth } : {}) };
      }),
    };
    this.events.push({ kind: 'decision', now: state.nowUs, request: req.id, stage, view });
  }

  onAdmission(req: SimRequest, d: AdmissionDecision, _s: RouterState, now: number): void {
    this.events.push({ kind: 'admission', now, request: req.spec.id, arrivalUs: req.spec.arrivalUs, admit: d.admit });
  }
  onRouting(req: SimRequest, d: RoutingDecision, s: RouterState, now: number): void {
    this.events.push({ kind: 'routing', now, request: req.spec.id, instance: s.instances[d.instance]?.index ?? d.instance, stage: 'routing' });
  }
  onPrefillRouting(req: SimRequest, d: RoutingDecision, s: RouterState, now: number): void {
    this.events.push({ kind: 'routing', now, request: req.spec.id, instance: s.instances[d.instance]?.index ?? d.instance, stage: 'prefill-routing' });
  }
  onQueued(req: SimRequest, now: number, instance: number): void {
    this.events.push({ kind: 'queued', now, request: req.spec.id, part: partOf(req), instance });
  }
  onScheduled(req: SimRequest, now: number, instance: number): void {
    this.events.push({ kind: 'scheduled', now, request: req.spec.id, part: partOf(req), instance });
  }
  onPreempted(req: SimRequest, now: number, instance: number): void {
    this.events.push({ kind: 'preempted', now, request: req.spec.id, part: partOf(req), instance });
  }
  onStep(now: number, _stepTime: number, batch: StepBatch, instance: number): void {
    // An empty step (nothing fits while KV is held for a transfer in flight) is time passing, not
    // a livelock: only steps that run something count, and only those are logged.
    if (batch.prefillTokens + batch.decodeTokens === 0) return;
    if (++this.steps > this.maxSteps) throw new Error(`invariant recorder: over ${this.maxSteps} non-empty steps: livelock?`);
    if (this.recordSteps) this.events.push({ kind: 'step', now, instance });
  }
  onCompleted(req: SimRequest, now: number): void {
    this.events.push({ kind: 'completed', now, request: req.spec.id, part: partOf(req) });
  }
  onDropped(req: SimRequest, now: number, reason: string, detail?: string): void {
    // Rejected at the E/P/D encode stage: after admission, before the request went anywhere.
    const why = reason === 'rejected' && detail === ENCODE_REJECTED_DETAIL ? 'encode-rejected' : reason;
    this.events.push({ kind: 'dropped', now, request: req.spec.id, part: partOf(req), reason: why });
  }
  onDisaggregation(req: SimRequest, d: { disaggregate: boolean }, decodeInstance: number, now: number): void {
    this.events.push({ kind: 'disaggregation', now, request: req.spec.id, split: d.disaggregate && req.inputTokens > 0, decodeInstance });
  }
  onPdTransfer(r: PdTransferRecord, now: number): void {
    this.events.push({
      kind: 'pd-transfer',
      now,
      request: r.requestId,
      startUs: r.startUs,
      durationUs: r.durationUs,
      prefillInstance: r.prefillInstance,
      decodeInstance: r.decodeInstance,
    });
  }
  onScaleAction(a: ScaleAction, now: number): void {
    this.events.push({ kind: 'scale-action', now, pool: a.pool, before: a.before, after: a.after });
  }
  onInstanceState(instance: number, id: string, state: string, now: number): void {
    this.events.push({ kind: 'instance-state', now, instance, id, state });
  }
  onKvTransfer(_hash: number, transfer: string, now: number, instance: number, storedAtUs?: number): void {
    this.events.push({ kind: 'kv-transfer', now, instance, transfer, ...(storedAtUs !== undefined ? { storedAtUs } : {}) });
  }
}

/** `target` with one method replaced; every other property reads through (bound to the target). */
function forward<T extends object>(target: T, key: string, replacement: unknown): T {
  return new Proxy(target, {
    get(t, k) {
      if (k === key) return replacement;
      const v = Reflect.get(t, k, t);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  });
}
