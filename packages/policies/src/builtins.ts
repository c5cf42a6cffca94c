import * as z from 'zod';
import { createAlwaysAdmit } from './admission/always-admit.js';
import { createGaieLegacy, type GaieLegacyParams } from './admission/gaie-legacy.js';
import { createRejectAll } from './admission/reject-all.js';
import { createSloShed, type SloShedParams } from './admission/slo-shed.js';
import { createTenantQuota, type TenantQuotaParams } from './admission/tenant-quota.js';
import { createTierShed, type TierShedParams } from './admission/tier-shed.js';
import { createTokenBucket, type TokenBucketParams } from './admission/token-bucket.js';
import {
  createQueueDepthAutoscaler,
  type QueueDepthAutoscalerParams,
} from './autoscale/queue-depth.js';
import {
  createTargetUtilizationAutoscaler,
  type TargetUtilizationParams,
} from './autoscale/target-utilization.js';
import {
  createThresholdAutoscaler,
  type ThresholdAutoscalerParams,
} from './autoscale/threshold.js';
import {
  createWvaSaturationAutoscaler,
  type WvaSaturationParams,
} from './autoscale/wva-saturation.js';
import { createAlwaysDecider } from './deciders/always.js';
import { createNeverDecider } from './deciders/never.js';
import {
  createPrefixThresholdDecider,
  type PrefixThresholdParams,
} from './deciders/prefix-threshold.js';
import { type PolicyKind, PolicyParamsError } from './errors.js';
import type { PolicyFactoryContext } from './interfaces.js';
import { finitePositive, noParams, parsePolicyParams } from './params.js';
import {
  type AgePriorityParams,
  createInvertedSloPriority,
  createSloBasedPriority,
} from './priority/age-priority.js';
import { type ConstantPriorityParams, createConstantPriority } from './priority/constant.js';
import { createSloClassPriority, type SloClassPriorityParams } from './priority/slo-class.js';
import type { PolicyRegistry } from './registry.js';
import { createAlwaysBusiest } from './routing/always-busiest.js';
import { type CostEscalationParams, createCostEscalation } from './routing/cost-escalation.js';
import { createLeastKv } from './routing/least-kv.js';
import { createLeastLoaded } from './routing/least-loaded.js';
import { createPrefixAware, type PrefixAwareParams } from './routing/prefix-aware.js';
import { createPrefixOverlap, type PrefixOverlapParams } from './routing/prefix-overlap.js';
import { createRoundRobin } from './routing/round-robin.js';
import { createSessionAffinity, type SessionAffinityParams } from './routing/session-affinity.js';
import { createWeightedRouting } from './routing/weighted.js';
import { createFcfsScheduler } from './schedulers/fcfs.js';
import { createPriorityFcfsScheduler } from './schedulers/priority-fcfs.js';
import { createReversePriorityScheduler } from './schedulers/reverse-priority.js';
import { createSjfScheduler } from './schedulers/sjf.js';
import {
  DEFAULT_SCORER_CONFIGS,
  parseScorerList,
  type ScorerConfig,
  ScorerSpecError,
} from './scorer-spec.js';
import { lazySchema } from './lazy-schema.js';
import { createActiveRequestsScorer } from './scorers/active-requests.js';
import { createKvUtilizationScorer } from './scorers/kv-utilization.js';
import { createLoadAwareScorer } from './scorers/load-aware.js';
import { createVllmDpScorer } from './scorers/vllm-dp.js';
import { createLoadBalanceScorer } from './scorers/load-balance.js';
import { createNoHitLruScorer } from './scorers/no-hit-lru.js';
import { createPrecisePrefixCacheScorer } from './scorers/precise-prefix-cache.js';
import { createLoraAffinityScorer } from './scorers/lora-affinity.js';
import {
  createPrefixAffinityScorer,
  type PrefixAffinityParams,
} from './scorers/prefix-affinity.js';
import { createQueueDepthScorer } from './scorers/queue-depth.js';
import { createRunningRequestsScorer } from './scorers/running-requests.js';

/** A factory for a policy without parameters that still rejects stray ones. */
function paramless<T>(
  kind: PolicyKind,
  name: string,
  make: () => T,
): (ctx: PolicyFactoryContext) => T {
  return (ctx) => {
    parsePolicyParams(kind, name, noParams, ctx.params);
    return make();
  };
}

export const weightedParamsSchema = lazySchema(() =>
  z.strictObject({
    /** `"name:weight,..."` or a list of `{ name, weight, params? }`; default pa:3,qd:2,kv:2. */
    scorers: z
      .union(
        [
          z.string(),
          z.array(
            z.strictObject({
              name: z
                .string({ error: 'expected a scorer name' })
                .min(1, { error: 'expected a scorer name' }),
              weight: finitePositive(),
              params: z.record(z.string(), z.unknown()).optional(),
            }),
          ),
        ],
        { error: 'expected "name:weight,..." or a list of { name, weight }' },
      )
      .optional(),
  }),
);

/** Registers every built-in policy, scheduler, scorer, P/D decider and autoscaler into `registry`. */
export function registerBuiltinPolicies(registry: PolicyRegistry): void {
  // Admission
  registry.registerAdmissionPolicy(
    'always-admit',
    paramless('admission', 'always-admit', createAlwaysAdmit),
  );
  registry.registerAdmissionPolicy(
    'reject-all',
    paramless('admission', 'reject-all', createRejectAll),
  );
  registry.registerAdmissionPolicy('token-bucket', (ctx) =>
    createTokenBucket(ctx.params as TokenBucketParams),
  );
  registry.registerAdmissionPolicy('tenant-quota', (ctx) =>
    createTenantQuota(ctx.params as TenantQuotaParams),
  );
  registry.registerAdmissionPolicy('slo-shed', (ctx) => createSloShed(ctx.params as SloShedParams));
  registry.registerAdmissionPolicy('tier-shed', (ctx) =>
    createTierShed(ctx.params as TierShedParams),
  );
  registry.registerAdmissionPolicy('gaie-legacy', (ctx) =>
    createGaieLegacy(ctx.params as GaieLegacyParams),
  );

  // Priority
  registry.registerPriorityPolicy('constant', (ctx) =>
    createConstantPriority(ctx.params as ConstantPriorityParams),
  );
  registry.registerPriorityPolicy('slo-based', (ctx) =>
    createSloBasedPriority(ctx.params as AgePriorityParams),
  );
  registry.registerPriorityPolicy('inverted-slo', (ctx) =>
    createInvertedSloPriority(ctx.params as AgePriorityParams),
  );
  registry.registerPriorityPolicy('slo-class', (ctx) =>
    createSloClassPriority(ctx.params as SloClassPriorityParams),
  );

  // Scorers
  registry.registerScorer('prefix-affinity', (ctx) =>
    createPrefixAffinityScorer(ctx.params as PrefixAffinityParams),
  );
  registry.registerScorer(
    'precise-prefix-cache',
    paramless('scorer', 'precise-prefix-cache', createPrecisePrefixCacheScorer),
  );
  registry.registerScorer('lora-affinity', paramless('scorer', 'lora-affinity', createLoraAffinityScorer));
  registry.registerScorer('no-hit-lru', paramless('scorer', 'no-hit-lru', createNoHitLruScorer));
  registry.registerScorer(
    'queue-depth',
    paramless('scorer', 'queue-depth', createQueueDepthScorer),
  );
  registry.registerScorer(
    'kv-utilization',
    paramless('scorer', 'kv-utilization', createKvUtilizationScorer),
  );
  registry.registerScorer(
    'load-balance',
    paramless('scorer', 'load-balance', createLoadBalanceScorer),
  );
  registry.registerScorer(
    'active-requests',
    paramless('scorer', 'active-requests', createActiveRequestsScorer),
  );
  registry.registerScorer(
    'running-requests',
    paramless('scorer', 'running-requests', createRunningRequestsScorer),
  );
  registry.registerScorer('load-aware', paramless('scorer', 'load-aware', createLoadAwareScorer));
  registry.registerScorer('vllm-dp', paramless('scorer', 'vllm-dp', createVllmDpScorer));

  // Routing
  registry.registerRoutingPolicy(
    'round-robin',
    paramless('routing', 'round-robin', createRoundRobin),
  );
  registry.registerRoutingPolicy('least-loaded', (ctx) => {
    parsePolicyParams('routing', 'least-loaded', noParams, ctx.params);
    return createLeastLoaded(ctx.random);
  });
  registry.registerRoutingPolicy(
    'always-busiest',
    paramless('routing', 'always-busiest', createAlwaysBusiest),
  );
  registry.registerRoutingPolicy('weighted', (ctx) => createWeightedFromRegistry(registry, ctx));
  registry.registerRoutingPolicy('least-kv', paramless('routing', 'least-kv', createLeastKv));
  registry.registerRoutingPolicy('prefix-aware', (ctx) =>
    createPrefixAware(ctx.params as PrefixAwareParams),
  );
  registry.registerRoutingPolicy('prefix-overlap', (ctx) =>
    createPrefixOverlap(ctx.params as PrefixOverlapParams),
  );
  registry.registerRoutingPolicy('session-affinity', (ctx) =>
    createSessionAffinity(ctx.params as SessionAffinityParams),
  );
  registry.registerRoutingPolicy('cost-escalation', (ctx) =>
    createCostEscalation(ctx.params as CostEscalationParams),
  );

  // Instance schedulers
  registry.registerScheduler('fcfs', paramless('scheduler', 'fcfs', createFcfsScheduler));
  registry.registerScheduler(
    'priority-fcfs',
    paramless('scheduler', 'priority-fcfs', createPriorityFcfsScheduler),
  );
  registry.registerScheduler('sjf', paramless('scheduler', 'sjf', createSjfScheduler));
  registry.registerScheduler(
    'reverse-priority',
    paramless('scheduler', 'reverse-priority', createReversePriorityScheduler),
  );

  // P/D deciders
  registry.registerDecider('never', paramless('decider', 'never', createNeverDecider));
  registry.registerDecider('always', paramless('decider', 'always', createAlwaysDecider));
  registry.registerDecider('prefix-threshold', (ctx) =>
    createPrefixThresholdDecider(ctx.params as PrefixThresholdParams, ctx.blockSizeTokens),
  );

  // Autoscalers
  registry.registerAutoscaler('wva-saturation', (ctx) =>
    createWvaSaturationAutoscaler(ctx.params as WvaSaturationParams),
  );
  registry.registerAutoscaler('threshold', (ctx) =>
    createThresholdAutoscaler(ctx.params as ThresholdAutoscalerParams),
  );
  registry.registerAutoscaler('target-utilization', (ctx) =>
    createTargetUtilizationAutoscaler(ctx.params as TargetUtilizationParams),
  );
  registry.registerAutoscaler('queue-depth', (ctx) =>
    createQueueDepthAutoscaler(ctx.params as QueueDepthAutoscalerParams),
  );
}

/**
 * Builds `weighted` with scorers looked up in `registry`, so custom scorers registered there
 * can be weighted alongside the built-ins. Each scorer gets the routing context with its own
 * `params`.
 */
function createWeightedFromRegistry(registry: PolicyRegistry, ctx: PolicyFactoryContext) {
  const p = parsePolicyParams('routing', 'weighted', weightedParamsSchema, ctx.params);
  let configs: readonly ScorerConfig[];
  if (typeof p.scorers === 'string') {
    try {
      configs = parseScorerList(p.scorers, registry.names('scorer'));
    } catch (err) {
      if (!(err instanceof ScorerSpecError)) throw err;
      throw new PolicyParamsError('routing', 'weighted', [
        { path: ['scorers'], message: err.message },
      ]);
    }
  } else {
    configs = p.scorers ?? [];
  }
  if (configs.length === 0) configs = DEFAULT_SCORER_CONFIGS;
  const seen = new Set<string>();
  configs.forEach((c, i) => {
    if (seen.has(c.name)) {
      throw new PolicyParamsError('routing', 'weighted', [
        {
          path: ['scorers', i, 'name'],
          message: `duplicate scorer "${c.name}"; each scorer may appear at most once`,
        },
      ]);
    }
    seen.add(c.name);
  });
  const entries = configs.map((c, i) => {
    if (!registry.has('scorer', c.name)) {
      throw new PolicyParamsError('routing', 'weighted', [
        {
          path: ['scorers', i, 'name'],
          message: `unknown scorer "${c.name}"; valid: ${registry.names('scorer').join(', ')}`,
        },
      ]);
    }
    try {
      return {
        scorer: registry.createScorer(c.name, { ...ctx, params: c.params ?? {} }),
        weight: c.weight,
      };
    } catch (err) {
      if (!(err instanceof PolicyParamsError)) throw err;
      // Re-anchor the scorer's own param errors under this scorer's entry.
      throw new PolicyParamsError(
        'routing',
        'weighted',
        err.issues.map((pi) => ({
          path: ['scorers', i, 'params', ...pi.path],
          message: pi.message,
        })),
      );
    }
  });
  return createWeightedRouting(entries, ctx.random);
}
