// One loader for custom policies: every command that names policies prepares them here.
export { isModulePath } from './module-path.js';
export type { FlagParams } from './policy-param-flag.js';
export { type LoadedModule, type ModuleKind, type PolicySetup, loadModule, preparePolicies } from './policy-setup.js';
export { type CustomPolicies, type RunShape, customAutoscalerName, customRuntime } from './custom-runtime.js';
export { withRegisteredScorerNames } from './scorer-list.js';
