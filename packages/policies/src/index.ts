// @blis/policies: the surface a policy author compiles against ALONE (a custom policy, a
// `blis evaluate` candidate module, a decision tree's compiled policy). The root holds the
// contract (views, interfaces), the helpers a policy reads its state with, the registry that
// builds every built-in by name, and the --policy-config bundle. The template factories, their
// parameter schemas and the text helpers the other @blis packages share are in
// `@blis/policies/internal` (unstable). README: "What is public".

// The contract: read-only views and policy interfaces.
export type * from './views.js';
export type * from './interfaces.js';
export type { RandomSource } from './random-source.js';
export { SATURATION_LEVELS } from './saturation-analysis.js';
export type { PostHocSaturationDetector, SaturationEvent, SaturationLevel, SaturationVerdict } from './saturation-analysis.js';

// Errors, parameters and shared helpers.
export {
  DuplicatePolicyError,
  type PolicyKind,
  PolicyError,
  type PolicyParamIssue,
  PolicyParamsError,
  UnknownPolicyError,
} from './errors.js';
// Guarded policies: errors with their decision's context, time budget, read-only views.
export {
  type CallWatch,
  type GuardOptions,
  type RunningCall,
  guardPolicy,
  type PolicyOfKind,
} from './guard/index.js';
export { parsePolicyParams } from './params.js';
export { counterfactualFallbackScore, effectiveLoad, outstandingRequests } from './load.js';
export { DEFAULT_SLO_PRIORITIES, DEFAULT_UNKNOWN_SLO_PRIORITY, SloPriorityMap } from './slo-priority-map.js';
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
export { DEFAULT_SCORER_CONFIGS, parseScorerList, type ScorerConfig, ScorerSpecError } from './scorer-spec.js';

// Policy bundle (BLIS --policy-config).
export type { PolicyBundle } from './policy-bundle-schema.js';
export type { PolicyBundleIssue } from './policy-bundle-issue.js';
export { type PolicyBundleResult, parsePolicyBundle } from './policy-bundle.js';
export { type PolicyOverrides, type PolicySpec, type ResolvedPolicySpecs, resolvePolicySpecs } from './policy-specs.js';

// Built-in policies by name: the registry above; the two kinds without a registry (E/P/D
// encode deciders, flow control's saturation detectors) have a by-name factory each.
export { createEncodeDecider, ENCODE_DECIDER_NAMES, type EncodeDeciderName, isMultimodal } from './encode/index.js';
export {
  createSaturationDetector,
  SATURATION_DETECTOR_NAMES,
  type SaturationDetector,
  type SaturationDetectorName,
  type SaturationDetectorParams,
} from './saturation/saturation-detector.js';
