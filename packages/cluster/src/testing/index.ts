/**
 * `@blis/cluster/testing`: fast-check arbitraries for whole simulation configs, and invariant
 * checkers for simulation results and run logs (INV-1..9, P/D, KV tiers, autoscaling), for
 * property suites written against the simulator. fast-check is a peer dependency: install it
 * (`npm i -D fast-check`) to use this entry. Browser-safe (no Node built-ins).
 *
 * @module
 */
export { simulationConfigArb, type FeatureChoice, type SimulationConfigArbOptions } from './config-arbitraries.js';
export { flowControlConfigArb } from './flow-control-arbitraries.js';
export { inlineSpecWorkloadArb, type InlineSpecWorkload, type InlineWorkloadOptions } from './workload-arbitraries.js';
export { admissionArb, namedPolicyArb, routingArb, scorersArb, type PolicyChoice, type RoutingChoice } from './policy-arbitraries.js';
export {
  autoscalingArb,
  kvTierArb,
  pdConfigArb,
  pdTopologyArb,
  topologySize,
  type AutoscalingParts,
  type KvTierParts,
  type PdTopology,
} from './feature-arbitraries.js';
export { checkInvariants, assertInvariants, type CheckOptions, type RecordedRun } from './check-invariants.js';
export { InvariantCheckError, type InvariantReport, type Violation } from './violation.js';
export { InvariantRecorder, type InvariantRecorderOptions } from './invariant-recorder.js';
export type { DecisionView, LogEvent, LogPart, RunFacts, RunLog } from './run-log.js';
export { simulateChecked, type CheckedRun, type SimulateCheckedOptions } from './simulate-checked.js';
