import { registerBuiltinPolicies } from './builtins.js';
import type {
  AdmissionFactory,
  AdmissionPolicy,
  AutoScaleFactory,
  AutoScalePolicy,
  DeciderFactory,
  DisaggregationDecider,
  InstanceScheduler,
  PolicyFactoryContext,
  PriorityFactory,
  PriorityPolicy,
  RoutingFactory,
  RoutingPolicy,
  SchedulerFactory,
  Scorer,
  ScorerFactory,
} from './interfaces.js';
import { type PolicyListing, PolicyRegistry, type RegisterOptions } from './registry.js';
import { parseScorerList, type ScorerConfig } from './scorer-spec.js';

/** A new registry; with the built-in catalogue unless `{ builtins: false }`. */
export function createPolicyRegistry(options: { builtins?: boolean } = {}): PolicyRegistry {
  const registry = new PolicyRegistry();
  if (options.builtins !== false) registerBuiltinPolicies(registry);
  return registry;
}

/** The process-wide registry the free functions below use. */
export const defaultPolicyRegistry: PolicyRegistry = createPolicyRegistry();

export function createAdmissionPolicy(name: string, ctx: PolicyFactoryContext): AdmissionPolicy {
  return defaultPolicyRegistry.createAdmissionPolicy(name, ctx);
}
export function createPriorityPolicy(name: string, ctx: PolicyFactoryContext): PriorityPolicy {
  return defaultPolicyRegistry.createPriorityPolicy(name, ctx);
}
export function createRoutingPolicy(name: string, ctx: PolicyFactoryContext): RoutingPolicy {
  return defaultPolicyRegistry.createRoutingPolicy(name, ctx);
}
export function createScheduler(name: string, ctx: PolicyFactoryContext): InstanceScheduler {
  return defaultPolicyRegistry.createScheduler(name, ctx);
}
export function createScorer(name: string, ctx: PolicyFactoryContext): Scorer {
  return defaultPolicyRegistry.createScorer(name, ctx);
}
export function createDecider(name: string, ctx: PolicyFactoryContext): DisaggregationDecider {
  return defaultPolicyRegistry.createDecider(name, ctx);
}
export function createAutoscaler(name: string, ctx: PolicyFactoryContext): AutoScalePolicy {
  return defaultPolicyRegistry.createAutoscaler(name, ctx);
}

export function registerAdmissionPolicy(
  name: string,
  factory: AdmissionFactory,
  options?: RegisterOptions,
): void {
  defaultPolicyRegistry.registerAdmissionPolicy(name, factory, options);
}
export function registerPriorityPolicy(
  name: string,
  factory: PriorityFactory,
  options?: RegisterOptions,
): void {
  defaultPolicyRegistry.registerPriorityPolicy(name, factory, options);
}
export function registerRoutingPolicy(
  name: string,
  factory: RoutingFactory,
  options?: RegisterOptions,
): void {
  defaultPolicyRegistry.registerRoutingPolicy(name, factory, options);
}
export function registerScheduler(
  name: string,
  factory: SchedulerFactory,
  options?: RegisterOptions,
): void {
  defaultPolicyRegistry.registerScheduler(name, factory, options);
}
export function registerScorer(
  name: string,
  factory: ScorerFactory,
  options?: RegisterOptions,
): void {
  defaultPolicyRegistry.registerScorer(name, factory, options);
}
export function registerDecider(
  name: string,
  factory: DeciderFactory,
  options?: RegisterOptions,
): void {
  defaultPolicyRegistry.registerDecider(name, factory, options);
}

export function registerAutoscaler(
  name: string,
  factory: AutoScaleFactory,
  options?: RegisterOptions,
): void {
  defaultPolicyRegistry.registerAutoscaler(name, factory, options);
}

/** Sorted names of every policy in the default registry, by kind. */
export function listPolicies(): PolicyListing {
  return defaultPolicyRegistry.listPolicies();
}

/**
 * Parses a `--routing-scorers` value (`"prefix-affinity:3,queue-depth:2"`) against the scorer
 * names of `registry`. Throws `ScorerSpecError`; unknown names list the valid ones. Empty text
 * gives `[]` (use {@link DEFAULT_SCORER_CONFIGS}).
 */
export function parseScorerSpec(
  text: string,
  registry: PolicyRegistry = defaultPolicyRegistry,
): ScorerConfig[] {
  return parseScorerList(text, registry.names('scorer'));
}
