import { DuplicatePolicyError, type PolicyKind, UnknownPolicyError } from './errors.js';
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

/** Policy kinds in a fixed order (for listings and messages). */
export const POLICY_KINDS: readonly PolicyKind[] = Object.freeze([
  'admission',
  'priority',
  'routing',
  'scheduler',
  'scorer',
  'decider',
  'autoscaler',
]);

/** What an empty name means for each kind (BLIS treats "" as the default policy). */
export const DEFAULT_POLICY_NAMES = Object.freeze({
  admission: 'always-admit',
  priority: 'constant',
  routing: 'round-robin',
  scheduler: 'fcfs',
  decider: 'never',
  autoscaler: 'wva-saturation',
} as const);

/** The factory type of each policy kind. */
export interface PolicyFactoryByKind {
  admission: AdmissionFactory;
  priority: PriorityFactory;
  routing: RoutingFactory;
  scheduler: SchedulerFactory;
  scorer: ScorerFactory;
  decider: DeciderFactory;
  autoscaler: AutoScaleFactory;
}

/** Sorted names of every registered policy, by kind. */
export type PolicyListing = { readonly [K in PolicyKind]: readonly string[] };

export interface RegisterOptions {
  /** Replace an existing registration instead of throwing {@link DuplicatePolicyError}. */
  readonly replace?: boolean;
}

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Maps policy names to factories, one namespace per kind. Unknown names throw
 * {@link UnknownPolicyError} listing the valid ones. Separate registries are independent, so a
 * custom registration in one never leaks into another.
 */
export class PolicyRegistry {
  private readonly tables: { [K in PolicyKind]: Map<string, PolicyFactoryByKind[K]> } = {
    admission: new Map(),
    priority: new Map(),
    routing: new Map(),
    scheduler: new Map(),
    scorer: new Map(),
    decider: new Map(),
    autoscaler: new Map(),
  };

  register<K extends PolicyKind>(
    kind: K,
    name: string,
    factory: PolicyFactoryByKind[K],
    options: RegisterOptions = {},
  ): void {
    if (!NAME_PATTERN.test(name)) {
      throw new RangeError(
        `policy name "${name}" is invalid: use letters, digits, ".", "_" or "-", starting with a letter or digit`,
      );
    }
    if (typeof factory !== 'function') {
      throw new TypeError(`factory for "${name}" must be a function, got ${typeof factory}`);
    }
    const table = this.tables[kind];
    if (table.has(name) && options.replace !== true) throw new DuplicatePolicyError(kind, name);
    table.set(name, factory);
  }

  registerAdmissionPolicy(name: string, factory: AdmissionFactory, options?: RegisterOptions) {
    this.register('admission', name, factory, options);
  }
  registerPriorityPolicy(name: string, factory: PriorityFactory, options?: RegisterOptions) {
    this.register('priority', name, factory, options);
  }
  registerRoutingPolicy(name: string, factory: RoutingFactory, options?: RegisterOptions) {
    this.register('routing', name, factory, options);
  }
  registerScheduler(name: string, factory: SchedulerFactory, options?: RegisterOptions) {
    this.register('scheduler', name, factory, options);
  }
  registerScorer(name: string, factory: ScorerFactory, options?: RegisterOptions) {
    this.register('scorer', name, factory, options);
  }
  registerDecider(name: string, factory: DeciderFactory, options?: RegisterOptions) {
    this.register('decider', name, factory, options);
  }
  registerAutoscaler(name: string, factory: AutoScaleFactory, options?: RegisterOptions) {
    this.register('autoscaler', name, factory, options);
  }

  has(kind: PolicyKind, name: string): boolean {
    return this.tables[kind].has(resolveName(kind, name));
  }

  /** Sorted registered names of one kind. */
  names(kind: PolicyKind): string[] {
    return [...this.tables[kind].keys()].sort();
  }

  listPolicies(): PolicyListing {
    return {
      admission: this.names('admission'),
      priority: this.names('priority'),
      routing: this.names('routing'),
      scheduler: this.names('scheduler'),
      scorer: this.names('scorer'),
      decider: this.names('decider'),
      autoscaler: this.names('autoscaler'),
    };
  }

  /** The factory for `name` ("" = the kind's default), or {@link UnknownPolicyError}. */
  factory<K extends PolicyKind>(kind: K, name: string): PolicyFactoryByKind[K] {
    const resolved = resolveName(kind, name);
    const f = this.tables[kind].get(resolved);
    if (f === undefined) throw new UnknownPolicyError(kind, resolved, this.names(kind));
    return f;
  }

  createAdmissionPolicy(name: string, ctx: PolicyFactoryContext): AdmissionPolicy {
    return this.factory('admission', name)(ctx);
  }
  createPriorityPolicy(name: string, ctx: PolicyFactoryContext): PriorityPolicy {
    return this.factory('priority', name)(ctx);
  }
  createRoutingPolicy(name: string, ctx: PolicyFactoryContext): RoutingPolicy {
    return this.factory('routing', name)(ctx);
  }
  createScheduler(name: string, ctx: PolicyFactoryContext): InstanceScheduler {
    return this.factory('scheduler', name)(ctx);
  }
  createScorer(name: string, ctx: PolicyFactoryContext): Scorer {
    return this.factory('scorer', name)(ctx);
  }
  createDecider(name: string, ctx: PolicyFactoryContext): DisaggregationDecider {
    return this.factory('decider', name)(ctx);
  }
  createAutoscaler(name: string, ctx: PolicyFactoryContext): AutoScalePolicy {
    return this.factory('autoscaler', name)(ctx);
  }
}

function resolveName(kind: PolicyKind, name: string): string {
  if (name !== '' || kind === 'scorer') return name;
  return DEFAULT_POLICY_NAMES[kind];
}
