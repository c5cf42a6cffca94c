import type { PolicyKind } from '../errors.js';
import type {
  AdmissionPolicy,
  AutoScalePolicy,
  DisaggregationDecider,
  InstanceScheduler,
  PriorityPolicy,
  RouterEvent,
  RoutingPolicy,
  Scorer,
} from '../interfaces.js';
import type { AutoScaleContext, RequestView, RouterState, SchedulerContext, SchedulerEntry } from '../views.js';
import { request, routerState, schedulerContext, snapshot } from './builders.js';
import type { ContractScenario } from './contract-scenario.js';
import { buildAutoScaleContext } from './view-arbitraries.js';

/** Any policy object the harness can drive. */
export type AnyPolicy = AdmissionPolicy | PriorityPolicy | RoutingPolicy | Scorer | InstanceScheduler | DisaggregationDecider | AutoScalePolicy;

/** The inputs of one step, built fresh from the scenario's plain data. */
export interface StepInputs {
  readonly request: RequestView;
  readonly state: RouterState;
  readonly autoscale: AutoScaleContext;
  readonly schedulerContext: SchedulerContext;
  /** The previous step's request as a queued entry (for schedulers' pairwise compare). */
  readonly previous: SchedulerEntry | undefined;
  readonly current: SchedulerEntry;
  readonly pick: number;
}

/** Builds every step's inputs (new objects on each call, so runs never share state). */
export function buildSteps(s: ContractScenario): StepInputs[] {
  let nowUs = 0;
  let previous: SchedulerEntry | undefined;
  return s.steps.map((step, i) => {
    nowUs += step.advanceUs;
    const req = request({ ...step.request, blockHashes: Array.from(step.request.blockHashes ?? []), index: i, id: `r${i}`, arrivalUs: nowUs });
    const current: SchedulerEntry = { request: req, enqueueSeq: i };
    const inputs: StepInputs = {
      request: req,
      state: routerState(
        step.instances.map((init, k) => snapshot(init, k)),
        { nowUs, saturation: step.saturation, globalInFlight: step.globalInFlight, tenants: { a: { inFlight: step.tenantInFlight, requests: step.tenantInFlight }, b: {} } },
      ),
      autoscale: buildAutoScaleContext({ ...step.autoscale, nowUs }),
      schedulerContext: schedulerContext({ nowUs, queueDepth: 2 }),
      previous,
      current,
      pick: step.pick,
    };
    previous = current;
    return inputs;
  });
}

/** A policy method threw: the run cannot go on. */
export class PolicyThrew extends Error {
  override readonly name = 'PolicyThrew';
}

/** What one step produced: a plain, comparable decision, and any breach of the decision contract. */
export interface StepOutcome {
  readonly decision: unknown;
  readonly problems: string[];
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const plain = (a: ArrayLike<number> | undefined) => (a === undefined ? undefined : Array.from(a, (x) => (Number.isFinite(x) ? x : String(x))));
const where = (r: RequestView, nowUs: number) => `request ${r.index} ("${r.id}") at ${nowUs} µs`;

function call<T>(method: string, context: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new PolicyThrew(`${method}() for ${context}: threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`, { cause: e });
  }
}

/**
 * Runs one step of `kind` on `policy` with the given (possibly guarded) inputs and checks the
 * decision against the contract of that kind. Method calls that throw become {@link PolicyThrew}.
 */
export function driveStep(kind: PolicyKind, policy: AnyPolicy, x: StepInputs): StepOutcome {
  const problems: string[] = [];
  const n = x.state.instances.length;
  const at = where(x.request, x.state.nowUs);
  switch (kind) {
    case 'admission': {
      const d = call('admit', at, () => (policy as AdmissionPolicy).admit(x.request, x.state));
      if (typeof d?.admit !== 'boolean') problems.push(`admit() for ${at}: returned admit ${String(d?.admit)}; expected a boolean`);
      if (typeof d?.reason !== 'string') problems.push(`admit() for ${at}: returned reason ${String(d?.reason)}; expected a string`);
      return { decision: { admit: d?.admit, reason: d?.reason }, problems };
    }
    case 'priority': {
      const p = call('priority', at, () => (policy as PriorityPolicy).priority(x.request, x.state.nowUs));
      if (!isFiniteNumber(p)) problems.push(`priority() for ${at}: returned ${String(p)}; expected a finite number`);
      return { decision: p, problems };
    }
    case 'routing': {
      const router = policy as RoutingPolicy;
      const event = (e: RouterEvent) => call('onEvent', at, () => router.onEvent?.(e));
      event({ kind: 'arrival', nowUs: x.state.nowUs, request: x.request });
      const d = call('route', at, () => router.route(x.request, x.state));
      if (d?.reject !== true && !(Number.isInteger(d?.instance) && d.instance >= 0 && d.instance < n))
        problems.push(`route() for ${at}: returned instance ${String(d?.instance)}; expected an integer in 0..${n - 1} (or reject: true)`);
      if (d?.scores !== undefined) {
        if (d.scores.length !== n) problems.push(`route() for ${at}: returned ${d.scores.length} scores; expected ${n} (one per instance)`);
        const bad = Array.from(d.scores).findIndex((v) => !Number.isFinite(v));
        if (bad >= 0) problems.push(`route() for ${at}: scores[${bad}] is ${d.scores[bad]}; expected a finite number`);
      }
      for (const [name, arr] of Object.entries(d?.breakdown ?? {})) {
        const bad = Array.from(arr).findIndex((v) => !Number.isFinite(v));
        if (bad >= 0) problems.push(`route() for ${at}: breakdown.${name}[${bad}] is ${arr[bad]}; expected a finite number`);
      }
      if (d?.priority !== undefined && !isFiniteNumber(d.priority)) problems.push(`route() for ${at}: returned priority hint ${String(d.priority)}; expected a finite number`);
      if (problems.length === 0) {
        if (d.reject === true) event({ kind: 'dropped', nowUs: x.state.nowUs, request: x.request, reason: 'rejected' });
        else {
          const instance = x.state.instances[d.instance].index;
          event({ kind: 'routed', nowUs: x.state.nowUs, request: x.request, instance });
          call('onComplete', at, () => router.onComplete?.(x.request, instance));
          event({ kind: 'completed', nowUs: x.state.nowUs, request: x.request, instance });
        }
      }
      return { decision: { instance: d?.instance, reject: d?.reject, priority: d?.priority, reason: d?.reason, scores: plain(d?.scores) }, problems };
    }
    case 'scorer': {
      const scorer = policy as Scorer;
      const out = new Float64Array(n).fill(Number.NaN);
      call('score', at, () => scorer.score(x.request, x.state, out));
      const bad = Array.from(out).findIndex((v) => !Number.isFinite(v));
      if (bad >= 0) problems.push(`score() for ${at}: wrote ${out[bad]} for instance ${bad}; expected a finite number for every instance`);
      call('observe', at, () => scorer.observe?.(x.request, x.pick % n, x.state));
      return { decision: plain(out), problems };
    }
    case 'scheduler': {
      const s = policy as InstanceScheduler;
      if (x.previous === undefined || s.compare === undefined) return { decision: null, problems };
      const { previous, current } = x;
      const ab = call('compare', at, () => s.compare?.(previous, current, x.schedulerContext));
      const ba = call('compare', at, () => s.compare?.(current, previous, x.schedulerContext));
      for (const v of [ab, ba]) if (!isFiniteNumber(v)) problems.push(`compare() for ${at}: returned ${String(v)}; expected a finite number`);
      if (problems.length === 0 && Math.sign(ab as number) !== -Math.sign(ba as number))
        problems.push(`compare() for ${at}: compare(a, b) = ${ab} but compare(b, a) = ${ba}; expected opposite signs (an order)`);
      return { decision: [ab, ba], problems };
    }
    case 'decider': {
      const selected = x.pick % n;
      const d = call('decide', at, () => (policy as DisaggregationDecider).decide(x.request, x.state, selected));
      if (typeof d?.disaggregate !== 'boolean') problems.push(`decide() for ${at}: returned disaggregate ${String(d?.disaggregate)}; expected a boolean`);
      if (d?.decodeInstance !== undefined && !(Number.isInteger(d.decodeInstance) && d.decodeInstance >= 0 && d.decodeInstance < n))
        problems.push(`decide() for ${at}: returned decodeInstance ${String(d.decodeInstance)}; expected an integer in 0..${n - 1}`);
      return { decision: { disaggregate: d?.disaggregate, decodeInstance: d?.decodeInstance, reason: d?.reason }, problems };
    }
    case 'autoscaler': {
      const ctxAt = `the evaluation at ${x.autoscale.nowUs} µs`;
      const d = call('evaluate', ctxAt, () => (policy as AutoScalePolicy).evaluate(x.autoscale));
      if (!(isFiniteNumber(d?.delta) && Number.isInteger(d.delta))) problems.push(`evaluate() for ${ctxAt}: returned delta ${String(d?.delta)}; expected a whole number of replicas`);
      for (const [name, v] of Object.entries(d?.signals ?? {}))
        if (!isFiniteNumber(v)) problems.push(`evaluate() for ${ctxAt}: signal ${name} is ${String(v)}; expected a finite number`);
      return { decision: { delta: d?.delta, reason: d?.reason, signals: d?.signals }, problems };
    }
  }
}

/** Checks a policy's custom metrics at the end of a run: finite numbers only. */
export function checkMetrics(policy: AnyPolicy): string[] {
  if (typeof policy.metrics !== 'function') return [];
  const m = call('metrics', 'the end of the run', () => policy.metrics?.());
  return Object.entries(m ?? {})
    .filter(([, v]) => !isFiniteNumber(v))
    .map(([k, v]) => `metrics(): ${k} is ${String(v)}; expected a finite number`);
}
