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
      add('admit', () => (request: RequestView, state: RouterState) => {
        const t = g.enter('admit', requestInState, request, state);
        let d: ReturnType<AdmissionPolicy['admit']>;
        try {
          d = p.admit(g.ro(request, 'request'), g.ro(state, 'state'));
        } catch (e) {
          throw g.threw(e);
        }
        g.leave(t);
        g.check(admissionProblem(d));
        return d;
      });
      break;
    }
    case 'priority': {
      const p = policy as PriorityPolicy;
      add('priority', () => (request: RequestView, nowUs: number) => {
        const t = g.enter('priority', requestAtTime, request, nowUs);
        let v: number;
        try {
          v = p.priority(g.ro(request, 'request'), nowUs);
        } catch (e) {
          throw g.threw(e);
        }
        g.leave(t);
        g.check(finiteNumberProblem(v));
        return v;
      });
      break;
    }
    case 'routing': {
      const p = policy as RoutingPolicy;
      add('route', () => (request: RequestView, state: RouterState) => {
        const t = g.enter('route', requestInState, request, state);
        let d: ReturnType<RoutingPolicy['route']>;
        try {
          d = p.route(g.ro(request, 'request'), g.ro(state, 'state'));
        } catch (e) {
          throw g.threw(e);
        }
        g.leave(t);
        g.check(routingProblem(d, state.instances.length));
        return d;
      });
      add('onComplete', () => (request: RequestView, instance: number) => {
        const t = g.enter('onComplete', requestCompleted, request, instance);
        try {
          p.onComplete!(g.ro(request, 'request'), instance);
        } catch (e) {
          throw g.threw(e);
        }
        g.leave(t);
      });
      add('onEvent', () => (event: RouterEvent) => {
        const t = g.enter('onEvent', routerEvent, event);
        try {
          p.onEvent!(g.ro(event, 'event'));
        } catch (e) {
          throw g.threw(e);
        }
        g.leave(t);
      });
      break;
    }
    case 'scheduler': {
      const p = policy as InstanceScheduler;
      add('compare', () => (a: SchedulerEntry, b: SchedulerEntry, ctx: SchedulerContext) => {
        const t = g.enter('compare', schedulerPair, a, b, ctx);
        let v: number;
        try {
          v = p.compare!(g.ro(a, 'a'), g.ro(b, 'b'), g.ro(ctx, 'ctx'));
        } catch (e) {
          throw g.threw(e);
        }
        g.leave(t);
        g.check(finiteNumberProblem(v));
        return v;
      });
      break;
    }
    case 'scorer': {
      const p = policy as Scorer;
      add('score', () => (request: RequestView, state: RouterState, scores: Float64Array) => {
        const t = g.enter('score', requestInState, request, state);
        try {
          p.score(g.ro(request, 'request'), g.ro(state, 'state'), scores);
        } catch (e) {
          throw g.threw(e);
        }
        g.leave(t);
        g.check(scoresProblem(scores));
      });
      add('observe', () => (request: RequestView, chosen: number, state: RouterState) => {
        const t = g.enter('observe', requestObserved, request, chosen, state);
        try {
          p.observe!(g.ro(request, 'request'), chosen, g.ro(state, 'state'));
        } catch (e) {
          throw g.threw(e);
        }
        g.leave(t);
      });
      break;
    }
    case 'decider': {
      const p = policy as DisaggregationDecider;
      add('decide', () => (request: RequestView, state: RouterState, selected: number) => {
        const t = g.enter('decide', requestInState, request, state);
        let d: ReturnType<DisaggregationDecider['decide']>;
        try {
          d = p.decide(g.ro(request, 'request'), g.ro(state, 'state'), selected);
        } catch (e) {
          throw g.threw(e);
        }
        g.leave(t);
        g.check(deciderProblem(d, state.instances.length));
        return d;
      });
      break;
    }
    case 'autoscaler': {
      const p = policy as AutoScalePolicy;
      add('evaluate', () => (ctx: AutoScaleContext) => {
        const t = g.enter('evaluate', scalingGroup, ctx);
        let d: ReturnType<AutoScalePolicy['evaluate']>;
        try {
          d = p.evaluate(g.ro(ctx, 'ctx'));
        } catch (e) {
          throw g.threw(e);
        }
        g.leave(t);
        g.check(scaleProblem(d));
        return d;
      });
      break;
    }
  }
  add('metrics', () => () => {
    const t = g.enter('metrics', runEnd);
    let m: unknown;
    try {
      m = (policy as { metrics: () => unknown }).metrics();
    } catch (e) {
      throw g.threw(e);
    }
    g.leave(t);
    g.check(metricsProblem(m));
    return m;
  });
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
