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
import { CallGuard, type GuardOptions } from './call-guard.js';
import {
  admissionProblem,
  deciderProblem,
  finiteNumberProblem,
  metricsProblem,
  routingProblem,
  scaleProblem,
  scoresProblem,
} from './decision-checks.js';
import {
  requestAtTime,
  requestCompleted,
  requestInState,
  requestObserved,
  routerEvent,
  runEnd,
  scalingGroup,
  schedulerPair,
} from './decision-context.js';

/** The policy interface of each kind. */
export interface PolicyOfKind {
  admission: AdmissionPolicy;
  priority: PriorityPolicy;
  routing: RoutingPolicy;
  scheduler: InstanceScheduler;
  scorer: Scorer;
  decider: DisaggregationDecider;
  autoscaler: AutoScalePolicy;
}

/** The methods a kind's guard wraps; everything else on the policy is forwarded as it is. */
const METHODS: Record<PolicyKind, readonly string[]> = {
  admission: ['admit'],
  priority: ['priority'],
  routing: ['route', 'onComplete', 'onEvent'],
  scheduler: ['compare'],
  scorer: ['score', 'observe'],
  decider: ['decide'],
  autoscaler: ['evaluate'],
};

const guarded = new WeakSet<object>();

/** True for a policy object {@link guardPolicy} returned. */
export function isGuardedPolicy(policy: object): boolean {
  return guarded.has(policy);
}

type Methods = Record<string, (...args: never[]) => unknown>;

/**
 * Wraps `policy` so that a misbehaving one stops the run with a {@link PolicyError} naming it,
 * its `source`, the method and the decision (which request, at what simulated time) instead of
 * corrupting it: anything a method throws, an answer outside the contract (an instance out of
 * range, a NaN score, a non-boolean verdict, a fractional scale delta, non-finite metrics), a
 * call over `options.budgetMs`, and in `readOnly` mode the first write to a view. The result
 * has the same interface, and the same optional methods (a scheduler without `compare` stays
 * without one). Cost when not `readOnly`: a closure call, a try block and the answer's check.
 */
export function guardPolicy<K extends PolicyKind>(kind: K, policy: PolicyOfKind[K], options: GuardOptions = {}): PolicyOfKind[K] {
  const g = new CallGuard(kind, String(policy.name), options.source, options);
  const out = forward(policy, METHODS[kind]) as Methods;
  const inner = policy as unknown as Methods;
  const add = (method: string, wrap: () => (...args: never[]) => unknown) => {
    if (typeof inner[method] === 'function') out[method] = wrap();
  };
  switch (kind) {
    case 'admission': {
      const p = policy as AdmissionPolicy;
      add('admit', () => (request: RequestView, state: RouterState) =>
        g.call('admit', requestInState, () => p.admit(g.ro(request, 'request'), g.ro(state, 'state')), admissionProblem, request, state));
      break;
    }
    case 'priority': {
      const p = policy as PriorityPolicy;
      add('priority', () => (request: RequestView, nowUs: number) =>
        g.call('priority', requestAtTime, () => p.priority(g.ro(request, 'request'), nowUs), finiteNumberProblem, request, nowUs));
      break;
    }
    case 'routing': {
      const p = policy as RoutingPolicy;
      add('route', () => (request: RequestView, state: RouterState) =>
        g.call('route', requestInState, () => p.route(g.ro(request, 'request'), g.ro(state, 'state')), (d) => routingProblem(d, state.instances.length), request, state));
      add('onComplete', () => (request: RequestView, instance: number) =>
        g.call('onComplete', requestCompleted, () => p.onComplete!(g.ro(request, 'request'), instance), undefined, request, instance));
      add('onEvent', () => (event: RouterEvent) => g.call('onEvent', routerEvent, () => p.onEvent!(g.ro(event, 'event')), undefined, event));
      break;
    }
    case 'scheduler': {
      const p = policy as InstanceScheduler;
      add('compare', () => (a: SchedulerEntry, b: SchedulerEntry, ctx: SchedulerContext) =>
        g.call('compare', schedulerPair, () => p.compare!(g.ro(a, 'a'), g.ro(b, 'b'), g.ro(ctx, 'ctx')), finiteNumberProblem, a, b, ctx));
      break;
    }
    case 'scorer': {
      const p = policy as Scorer;
      // The answer is what score() wrote into `scores` (the router's own buffer, never a view).
      add('score', () => (request: RequestView, state: RouterState, scores: Float64Array) =>
        g.call('score', requestInState, () => p.score(g.ro(request, 'request'), g.ro(state, 'state'), scores), () => scoresProblem(scores), request, state));
      add('observe', () => (request: RequestView, chosen: number, state: RouterState) =>
        g.call('observe', requestObserved, () => p.observe!(g.ro(request, 'request'), chosen, g.ro(state, 'state')), undefined, request, chosen, state));
      break;
    }
    case 'decider': {
      const p = policy as DisaggregationDecider;
      add('decide', () => (request: RequestView, state: RouterState, selected: number) =>
        g.call('decide', requestInState, () => p.decide(g.ro(request, 'request'), g.ro(state, 'state'), selected), (d) => deciderProblem(d, state.instances.length), request, state));
      break;
    }
    case 'autoscaler': {
      const p = policy as AutoScalePolicy;
      add('evaluate', () => (ctx: AutoScaleContext) => g.call('evaluate', scalingGroup, () => p.evaluate(g.ro(ctx, 'ctx')), scaleProblem, ctx));
      break;
    }
  }
  add('metrics', () => () => g.call('metrics', runEnd, () => (policy as { metrics: () => unknown }).metrics(), metricsProblem));
  guarded.add(out);
  return out as unknown as PolicyOfKind[K];
}

/**
 * A new object with the policy's other members: data (`name`, `timeDependent`) read live through
 * getters, other functions bound to the policy. Methods of classes are found on the prototypes.
 */
function forward(policy: object, wrapped: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const src = policy as Record<string, unknown>;
  const seen = new Set<string>([...wrapped, 'metrics', 'constructor']);
  for (let o: object | null = policy; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (seen.has(key)) continue;
      seen.add(key);
      const v = src[key];
      if (typeof v === 'function') out[key] = (v as (...a: unknown[]) => unknown).bind(policy);
      else Object.defineProperty(out, key, { get: () => src[key], enumerable: true });
    }
  }
  return out;
}
