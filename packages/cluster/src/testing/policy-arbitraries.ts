import { type PolicyRegistry, defaultPolicyRegistry } from '@blis/policies';
import fc from 'fast-check';

/** A policy name with the params it runs with, as `SimulationConfigInput` takes it. */
export interface PolicyChoice {
  policy: string;
  params: Record<string, unknown>;
}

/** A routing choice; `scorers` only for `weighted`. */
export interface RoutingChoice extends PolicyChoice {
  scorers?: { name: string; weight: number }[];
}

/** A weighted router's scorer list: a non-empty subset of the registry's scorers with positive weights. */
export function scorersArb(registry: PolicyRegistry = defaultPolicyRegistry, maxScorers = Number.POSITIVE_INFINITY): fc.Arbitrary<{ name: string; weight: number }[]> {
  const names = registry.names('scorer');
  return fc.uniqueArray(
    fc.record({ name: fc.constantFrom(...names), weight: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.double({ min: 0.01, max: 5, noNaN: true })) }),
    { selector: (s) => s.name, minLength: 1, maxLength: Math.min(names.length, maxScorers) },
  );
}

/** Params a built-in admission policy needs, or is more interesting with; `{}` for the rest. */
function admissionParamsArb(name: string): fc.Arbitrary<Record<string, unknown>> {
  switch (name) {
    case 'token-bucket':
      return fc.record({ capacity: fc.integer({ min: 500, max: 20_000 }), refillRate: fc.integer({ min: 1, max: 200_000 }) });
    case 'tenant-quota':
      return fc.record({ maxInFlight: fc.integer({ min: 1, max: 20 }), allowBorrowing: fc.boolean() });
    case 'slo-shed':
      return fc.double({ min: 0.2, max: 2, noNaN: true }).map((threshold) => ({ threshold, protectedThreshold: threshold * 2 }));
    default:
      return fc.constant({});
  }
}

/** Every admission policy of the registry, with valid params. */
export function admissionArb(registry: PolicyRegistry = defaultPolicyRegistry): fc.Arbitrary<PolicyChoice> {
  return fc.constantFrom(...registry.names('admission')).chain((policy) => admissionParamsArb(policy).map((params) => ({ policy, params })));
}

/** Every routing policy of the registry; `weighted` with a generated scorer list. */
export function routingArb(registry: PolicyRegistry = defaultPolicyRegistry): fc.Arbitrary<RoutingChoice> {
  return fc.constantFrom(...registry.names('routing')).chain((policy) =>
    policy === 'weighted' ? scorersArb(registry).map((scorers) => ({ policy, params: {}, scorers })) : fc.constant({ policy, params: {} }),
  );
}

/** Every policy of one parameterless kind (priority, scheduler). */
export function namedPolicyArb(kind: 'priority' | 'scheduler', registry: PolicyRegistry = defaultPolicyRegistry): fc.Arbitrary<PolicyChoice> {
  return fc.constantFrom(...registry.names(kind)).map((policy) => ({ policy, params: {} }));
}
