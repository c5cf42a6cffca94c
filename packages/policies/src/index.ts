// The contract: read-only views and policy interfaces.
export type * from './views.js';
export type * from './interfaces.js';
export type { RandomSource } from './random-source.js';
export { SATURATION_LEVELS } from './saturation-analysis.js';
export type { PostHocSaturationDetector, SaturationEvent, SaturationLevel, SaturationVerdict } from './saturation-analysis.js';

// Errors, parameters and shared helpers.
export {
  DuplicatePolicyError,
  formatParamPath,
  type PolicyKind,
  PolicyError,
  type PolicyParamIssue,
  PolicyParamsError,
  policyKindLabel,
  UnknownPolicyError,
} from './errors.js';
// Guarded policies: errors with their decision's context, time budget, read-only views.
export { type CallWatch, type GuardOptions, type RunningCall, guardPolicy, isGuardedPolicy, type PolicyOfKind } from './guard/index.js';
export { parsePolicyParams } from './params.js';
export { counterfactualFallbackScore, effectiveLoad, outstandingRequests } from './load.js';
export {
  DEFAULT_SLO_PRIORITIES,
  DEFAULT_UNKNOWN_SLO_PRIORITY,
  SloPriorityMap,
} from './slo-priority-map.js';
export { seededRandomSource } from './seeded-random.js';
export { DEFAULT_BLOCK_SIZE_TOKENS, policyContext } from './factory-context.js';

// Registry.
export {
  DEFAULT_POLICY_NAMES,
  POLICY_KINDS,
  type PolicyFactoryByKind,
  type PolicyListing,
  PolicyRegistry,
  type RegisterOptions,
} from './registry.js';
export { registerBuiltinPolicies, weightedParamsSchema } from './builtins.js';
export {
  createAdmissionPolicy,
  createAutoscaler,
  createDecider,
  createPolicyRegistry,
  createPriorityPolicy,
  createRoutingPolicy,
  createScheduler,
  createScorer,
  defaultPolicyRegistry,
  listPolicies,
  parseScorerSpec,
  registerAdmissionPolicy,
  registerAutoscaler,
  registerDecider,
  registerPriorityPolicy,
  registerRoutingPolicy,
  registerScheduler,
  registerScorer,
} from './default-registry.js';
export {
  DEFAULT_SCORER_CONFIGS,
  formatScorerList,
  parseScorerList,
  type ScorerConfig,
  ScorerSpecError,
} from './scorer-spec.js';

// Policy bundle (BLIS --policy-config).
export { splitPolicyMessage } from './policy-message.js';
export { splitListMessage } from './list-message.js';
export { MAX_EXACT_INTEGER, parseDecimal, parseDecimalInteger } from './decimal-number.js';
export { describeFound, EXCERPT_CHARS, messageText, quoteExcerpt, valueExcerpt } from './found-text.js';
export { jsonSyntaxProblem, type JsonSyntaxProblem } from './json-syntax.js';
export { describeZodExpected, valueAtPath, type ZodIssueText, zodIssueTexts } from './zod-issue-text.js';
export {
  admissionSectionSchema,
  autoscalerSectionSchema,
  createPolicyBundleSchema,
  instanceLifecycleSectionSchema,
  nodePoolSchema,
  type PolicyBundle,
  policyBundleSchema,
  preemptionSectionSchema,
  prioritySectionSchema,
  routingSectionSchema,
  scorerEntrySchema,
} from './policy-bundle-schema.js';
export type { PolicyBundleIssue } from './policy-bundle-issue.js';
export { type PolicyBundleResult, parsePolicyBundle } from './policy-bundle.js';
export { type PolicyOverrides, type PolicySpec, type ResolvedPolicySpecs, resolvePolicySpecs } from './policy-specs.js';
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

// Admission templates.
export { createAlwaysAdmit } from './admission/always-admit.js';
export { createRejectAll } from './admission/reject-all.js';
export {
  createTokenBucket,
  type TokenBucketParams,
  tokenBucketParamsSchema,
} from './admission/token-bucket.js';
export {
  createTenantQuota,
  type TenantQuotaParams,
  tenantQuotaParamsSchema,
} from './admission/tenant-quota.js';
export { createSloShed, type SloShedParams, sloShedParamsSchema } from './admission/slo-shed.js';
export {
  createTierShed,
  type TierShedParams,
  tierShedParamsSchema,
} from './admission/tier-shed.js';
export {
  createGaieLegacy,
  type GaieLegacyParams,
  gaieLegacyParamsSchema,
} from './admission/gaie-legacy.js';

// Priority templates.
export {
  type ConstantPriorityParams,
  constantPriorityParamsSchema,
  createConstantPriority,
} from './priority/constant.js';
export {
  type AgePriorityParams,
  agePriorityParamsSchema,
  createInvertedSloPriority,
  createSloBasedPriority,
} from './priority/age-priority.js';
export {
  createSloClassPriority,
  type SloClassPriorityParams,
  sloClassPriorityParamsSchema,
} from './priority/slo-class.js';

// Scorers.
export { createActiveRequestsScorer } from './scorers/active-requests.js';
export { createKvUtilizationScorer } from './scorers/kv-utilization.js';
export { createLoadAwareScorer, LOAD_AWARE_QUEUE_THRESHOLD } from './scorers/load-aware.js';
export { createVllmDpScorer } from './scorers/vllm-dp.js';
export { createLoadBalanceScorer } from './scorers/load-balance.js';
export { createNoHitLruScorer } from './scorers/no-hit-lru.js';
export { createPrecisePrefixCacheScorer } from './scorers/precise-prefix-cache.js';
export { createLoraAffinityScorer } from './scorers/lora-affinity.js';
export {
  createPrefixAffinityScorer,
  DEFAULT_PREFIX_INDEX_CAPACITY,
  type PrefixAffinityParams,
  prefixAffinityParamsSchema,
} from './scorers/prefix-affinity.js';
export { PrefixCacheIndex } from './scorers/prefix-cache-index.js';
export { createQueueDepthScorer } from './scorers/queue-depth.js';
export { createRunningRequestsScorer } from './scorers/running-requests.js';

// Routing templates.
export { createRoundRobin } from './routing/round-robin.js';
export { createLeastLoaded } from './routing/least-loaded.js';
export { createAlwaysBusiest } from './routing/always-busiest.js';
export { createWeightedRouting, type WeightedScorer } from './routing/weighted.js';
export { createLeastKv } from './routing/least-kv.js';
export {
  createPrefixAware,
  type PrefixAwareParams,
  prefixAwareParamsSchema,
} from './routing/prefix-aware.js';
export {
  createPrefixOverlap,
  type PrefixOverlapParams,
  prefixOverlapParamsSchema,
} from './routing/prefix-overlap.js';
export {
  createSessionAffinity,
  type SessionAffinityParams,
  sessionAffinityParamsSchema,
} from './routing/session-affinity.js';
export {
  type CostEscalationParams,
  costEscalationParamsSchema,
  createCostEscalation,
} from './routing/cost-escalation.js';

// P/D deciders.
export { createNeverDecider } from './deciders/never.js';
export { createAlwaysDecider } from './deciders/always.js';
export {
  createPrefixThresholdDecider,
  type PrefixThresholdParams,
  prefixThresholdParamsSchema,
} from './deciders/prefix-threshold.js';

// E/P/D encode deciders.
export {
  createAlwaysEncode,
  createEncodeDecider,
  createMultimodalEncode,
  createNeverEncode,
  ENCODE_DECIDER_NAMES,
  type EncodeDeciderName,
  isMultimodal,
} from './encode/index.js';

// Autoscalers.
export {
  createWvaSaturationAutoscaler,
  WVA_SATURATION_DEFAULTS,
  type WvaSaturationParams,
  wvaSaturationParamsSchema,
} from './autoscale/wva-saturation.js';
export {
  createThresholdAutoscaler,
  type ThresholdAutoscalerParams,
  thresholdAutoscalerParamsSchema,
} from './autoscale/threshold.js';
export {
  createTargetUtilizationAutoscaler,
  TARGET_UTILIZATION_DEFAULTS,
  type TargetUtilizationParams,
  targetUtilizationParamsSchema,
} from './autoscale/target-utilization.js';
export {
  createQueueDepthAutoscaler,
  type QueueDepthAutoscalerParams,
  queueDepthAutoscalerParamsSchema,
} from './autoscale/queue-depth.js';

// Instance schedulers.
export { createFcfsScheduler } from './schedulers/fcfs.js';
export { comparePriorityFcfs, createPriorityFcfsScheduler } from './schedulers/priority-fcfs.js';
export { compareSjf, createSjfScheduler } from './schedulers/sjf.js';
export {
  compareReversePriority,
  createReversePriorityScheduler,
} from './schedulers/reverse-priority.js';

// Saturation detectors (flow control's dispatch gate).
export {
  createConcurrencyDetector,
  createNeverSaturated,
  createSaturationDetector,
  createUtilizationDetector,
  SATURATION_DETECTOR_DEFAULTS,
  SATURATION_DETECTOR_NAMES,
  type SaturationDetector,
  type SaturationDetectorName,
  type SaturationDetectorParams,
} from './saturation/saturation-detector.js';
