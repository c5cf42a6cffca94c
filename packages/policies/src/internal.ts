/**
 * `@blis/policies/internal`: pieces the other `@blis/*` packages and this repository's tests share.
 *
 * UNSTABLE: no semver promise. Names here may change or disappear in any release; a policy
 * author or simulation user needs only the package root. Built-in policies are reached by name
 * through the registry (`createRoutingPolicy('least-loaded', ctx)`), not through the template
 * factories listed here.
 *
 * @module internal
 */

export { formatParamPath, policyKindLabel } from './errors.js';
export { isGuardedPolicy } from './guard/index.js';
export { registerBuiltinPolicies, weightedParamsSchema } from './builtins.js';
export { formatScorerList } from './scorer-spec.js';
export { splitPolicyMessage } from './policy-message.js';
export { splitListMessage } from './list-message.js';
export { MAX_EXACT_INTEGER, parseDecimal, parseDecimalInteger } from './decimal-number.js';
export {
  describeFound,
  EXCERPT_CHARS,
  messageText,
  quoteExcerpt,
  valueExcerpt,
} from './found-text.js';
export { jsonSyntaxProblem, type JsonSyntaxProblem } from './json-syntax.js';
export { lazySchema } from './lazy-schema.js';
export { describeZodExpected, valueAtPath, type ZodIssueText, zodIssueTexts } from './zod-issue-text.js';
export {
  admissionSectionSchema,
  autoscalerSectionSchema,
  createPolicyBundleSchema,
  instanceLifecycleSectionSchema,
  nodePoolSchema,
  policyBundleSchema,
  preemptionSectionSchema,
  prioritySectionSchema,
  routingSectionSchema,
  scorerEntrySchema,
} from './policy-bundle-schema.js';
export {
  ANALYZER_AUTOSCALER,
  ANALYZER_KEYS,
  type AutoscaleConfigInput,
  type AutoscalerSection,
  type AutoscalerSpec,
  type BundlePath,
  type AutoscalingInput,
  autoscaleConfigFromBundle,
  type DelayInput,
  type LifecycleInput,
  type NodePoolInput,
  resolveAutoscalerSpec,
  secondsToUs,
} from './autoscale-bundle.js';
export { createAlwaysAdmit } from './admission/always-admit.js';
export { createRejectAll } from './admission/reject-all.js';
export { createTokenBucket, type TokenBucketParams, tokenBucketParamsSchema } from './admission/token-bucket.js';
export { createTenantQuota, type TenantQuotaParams, tenantQuotaParamsSchema } from './admission/tenant-quota.js';
export { createSloShed, type SloShedParams, sloShedParamsSchema } from './admission/slo-shed.js';
export { createTierShed, type TierShedParams, tierShedParamsSchema } from './admission/tier-shed.js';
export { createGaieLegacy, type GaieLegacyParams, gaieLegacyParamsSchema } from './admission/gaie-legacy.js';
export { type ConstantPriorityParams, constantPriorityParamsSchema, createConstantPriority } from './priority/constant.js';
export { type AgePriorityParams, agePriorityParamsSchema, createInvertedSloPriority, createSloBasedPriority } from './priority/age-priority.js';
export { createSloClassPriority, type SloClassPriorityParams, sloClassPriorityParamsSchema } from './priority/slo-class.js';
export { createActiveRequestsScorer } from './scorers/active-requests.js';
export { createKvUtilizationScorer } from './scorers/kv-utilization.js';
export { createLoadAwareScorer, LOAD_AWARE_QUEUE_THRESHOLD } from './scorers/load-aware.js';
export { createVllmDpScorer } from './scorers/vllm-dp.js';
export { createLoadBalanceScorer } from './scorers/load-balance.js';
export { createNoHitLruScorer } from './scorers/no-hit-lru.js';
export { createPrecisePrefixCacheScorer } from './scorers/precise-prefix-cache.js';
export { createLoraAffinityScorer } from './scorers/lora-affinity.js';
export { createPrefixAffinityScorer, DEFAULT_PREFIX_INDEX_CAPACITY, type PrefixAffinityParams, prefixAffinityParamsSchema } from './scorers/prefix-affinity.js';
export { PrefixCacheIndex } from './scorers/prefix-cache-index.js';
export { createQueueDepthScorer } from './scorers/queue-depth.js';
export { createRunningRequestsScorer } from './scorers/running-requests.js';
export { createRoundRobin } from './routing/round-robin.js';
export { createLeastLoaded } from './routing/least-loaded.js';
export { createAlwaysBusiest } from './routing/always-busiest.js';
export { createWeightedRouting, type WeightedScorer } from './routing/weighted.js';
export { createLeastKv } from './routing/least-kv.js';
export { createPrefixAware, type PrefixAwareParams, prefixAwareParamsSchema } from './routing/prefix-aware.js';
export { createPrefixOverlap, type PrefixOverlapParams, prefixOverlapParamsSchema } from './routing/prefix-overlap.js';
export { createSessionAffinity, type SessionAffinityParams, sessionAffinityParamsSchema } from './routing/session-affinity.js';
export { type CostEscalationParams, costEscalationParamsSchema, createCostEscalation } from './routing/cost-escalation.js';
export { createNeverDecider } from './deciders/never.js';
export { createAlwaysDecider } from './deciders/always.js';
export { createPrefixThresholdDecider, type PrefixThresholdParams, prefixThresholdParamsSchema } from './deciders/prefix-threshold.js';
export { createAlwaysEncode, createMultimodalEncode, createNeverEncode } from './encode/index.js';
export { createWvaSaturationAutoscaler, WVA_SATURATION_DEFAULTS, type WvaSaturationParams, wvaSaturationParamsSchema } from './autoscale/wva-saturation.js';
export { createThresholdAutoscaler, type ThresholdAutoscalerParams, thresholdAutoscalerParamsSchema } from './autoscale/threshold.js';
export { createTargetUtilizationAutoscaler, TARGET_UTILIZATION_DEFAULTS, type TargetUtilizationParams, targetUtilizationParamsSchema } from './autoscale/target-utilization.js';
export { createQueueDepthAutoscaler, type QueueDepthAutoscalerParams, queueDepthAutoscalerParamsSchema } from './autoscale/queue-depth.js';
export { createFcfsScheduler } from './schedulers/fcfs.js';
export { comparePriorityFcfs, createPriorityFcfsScheduler } from './schedulers/priority-fcfs.js';
export { compareSjf, createSjfScheduler } from './schedulers/sjf.js';
export { compareReversePriority, createReversePriorityScheduler } from './schedulers/reverse-priority.js';
export { createConcurrencyDetector, createNeverSaturated, createUtilizationDetector, SATURATION_DETECTOR_DEFAULTS } from './saturation/saturation-detector.js';
