export type { CallWatch, GuardOptions, RunningCall } from './call-guard.js';
export { guardPolicy, isGuardedPolicy, type PolicyOfKind } from './guard-policy.js';
