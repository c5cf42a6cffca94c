import type {
  AdmissionDecision,
  AdmissionPolicy,
  AutoScaleContext,
  AutoScalePolicy,
  PolicyFactoryContext,
  PriorityPolicy,
  RequestView,
  RouterState,
  RoutingPolicy,
  ScaleDecision,
} from '@blis/policies';
import { getterOf } from './compile-condition.js';
import { compileNode, readsTime } from './compile-tree.js';
import { compileRoutingLeaf, type RoutingAction } from './routing-leaf.js';
import { emptyEnv, type Env } from './signal-getters.js';
import type { AdmissionLeaf, AutoscalerLeaf, DecisionTree, PriorityLeaf, RoutingLeaf } from './types.js';

/** The policy a decision tree builds: the contract of its kind. */
export type DecisionTreePolicy = AdmissionPolicy | PriorityPolicy | RoutingPolicy | AutoScalePolicy;

/** The `name` of every decision-tree policy (what traces and results show). */
export const DECISION_TREE_POLICY_NAME = 'decision-tree';

const NAME = DECISION_TREE_POLICY_NAME;

/**
 * A policy factory for a parsed tree: each call compiles the tree into closures over a private
 * Env (so a decision looks nothing up by name and allocates at most the decision it returns) and returns the policy of
 * the tree's kind, named `decision-tree`. Each call builds fresh state (weighted leaves' scorers),
 * as a factory must: one policy per scaling group, per run.
 */
export function decisionTreePolicyFactory(tree: DecisionTree): (ctx: PolicyFactoryContext) => DecisionTreePolicy {
  switch (tree.kind) {
    case 'admission':
      return () => admissionPolicy(tree);
    case 'priority':
      return () => priorityPolicy(tree);
    case 'routing':
      return (ctx) => routingPolicy(tree, ctx);
    case 'autoscaler':
      return () => autoscalePolicy(tree);
  }
}

function admissionPolicy(tree: DecisionTree): AdmissionPolicy {
  const env = emptyEnv();
  const select = compileNode<AdmissionDecision>(tree.tree, (l, path) => {
    const leaf = l as AdmissionLeaf;
    return 'admit' in leaf ? { admit: true, reason: `decision-tree ${path}` } : { admit: false, reason: leaf.reject };
  });
  return {
    name: NAME,
    admit(request: RequestView, state: RouterState): AdmissionDecision {
      env.request = request;
      env.state = state;
      env.nowUs = state.nowUs;
      return select(env);
    },
  };
}

function priorityPolicy(tree: DecisionTree): PriorityPolicy {
  const env = emptyEnv();
  const select = compileNode<(e: Env) => number>(tree.tree, (l) => {
    const p = (l as PriorityLeaf).priority;
    if (typeof p === 'number') return () => p;
    const get = getterOf(p.signal) as (e: Env) => number;
    const { scale, offset } = p;
    return (e) => get(e) * scale + offset;
  });
  return {
    name: NAME,
    timeDependent: readsTime(tree.tree, 'priority'),
    priority(request: RequestView, nowUs: number): number {
      env.request = request;
      env.nowUs = nowUs;
      return select(env)(env);
    },
  };
}

function routingPolicy(tree: DecisionTree, ctx: PolicyFactoryContext): RoutingPolicy {
  const env = emptyEnv();
  const actions: RoutingAction[] = [];
  const select = compileNode<RoutingAction>(tree.tree, (l, path) => {
    const action = compileRoutingLeaf(l as RoutingLeaf, path, ctx);
    actions.push(action);
    return action;
  });
  const delegates = actions.flatMap((a) => (a.delegate?.onComplete !== undefined ? [a.delegate] : []));
  const policy: RoutingPolicy = {
    name: NAME,
    route(request, state) {
      env.request = request;
      env.state = state;
      env.nowUs = state.nowUs;
      return select(env).decide(env);
    },
  };
  if (delegates.length === 0) return policy;
  return {
    ...policy,
    onComplete(request, instance) {
      for (const d of delegates) d.onComplete?.(request, instance);
    },
  };
}

function autoscalePolicy(tree: DecisionTree): AutoScalePolicy {
  const env = emptyEnv();
  const select = compileNode<(c: AutoScaleContext) => ScaleDecision>(tree.tree, (l, path) => {
    const leaf = l as AutoscalerLeaf;
    const reason = `decision-tree ${path}`;
    if ('scale' in leaf) {
      const decision: ScaleDecision = { delta: leaf.scale, reason };
      return () => decision;
    }
    const target = leaf.target;
    return (c) => ({ delta: target - c.currentReplicas, reason, signals: { target } });
  });
  return {
    name: NAME,
    evaluate(ctx: AutoScaleContext): ScaleDecision {
      env.ctx = ctx;
      env.nowUs = ctx.nowUs;
      return select(env)(ctx);
    },
  };
}
