/**
 * `@blis/policies/testing`: builders and fast-check arbitraries for the views policies receive,
 * policy bundles, and a contract harness that runs any policy over generated states
 * ({@link checkPolicyContract}). fast-check is a peer dependency: install it
 * (`npm i -D fast-check`) to use this entry. Browser-safe (no Node built-ins).
 *
 * @module
 */
export {
  autoScaleContext,
  DEFAULT_REPLICA_KV_TOKENS,
  deepFreeze,
  entry,
  kvView,
  replicaMetrics,
  request,
  routerState,
  type SnapshotInit,
  type StateInit,
  schedulerContext,
  scoreAll,
  snapshot,
  snapshots,
} from './builders.js';
export {
  type AutoScaleInit,
  autoScaleContextArb,
  autoScaleInitArb,
  buildAutoScaleContext,
  instanceSnapshotArb,
  kvCacheViewArb,
  type RouterStateArbOptions,
  requestInitArb,
  requestViewArb,
  routerStateArb,
  schedulerContextArb,
  schedulerEntryArb,
  snapshotInitArb,
  TEST_SLO_CLASSES,
} from './view-arbitraries.js';
export { type PolicyBundleObject, policyBundleArb } from './bundle-arbitraries.js';
export { type ContractScenario, type ContractScenarioOptions, type ContractStep, contractScenarioArb } from './contract-scenario.js';
export { REQUEST_VIEW_KEYS, type ViewBreach, ViewGuard, fingerprint } from './read-only-views.js';
export {
  assertPolicyContract,
  CONTRACT_PROPERTIES,
  type ContractFailure,
  type ContractOptions,
  type ContractProperty,
  type ContractReport,
  checkPolicyContract,
  formatContractReport,
  type PolicyFactoryByKind,
} from './policy-contract.js';
