import fc from 'fast-check';
import { defaultPolicyRegistry } from '../default-registry.js';
import type { PolicyKind } from '../errors.js';
import { policyContext } from '../factory-context.js';
import type { PolicyRegistry } from '../registry.js';

/** Names of `kind` in `registry` that build with empty params (the ones a bundle may name bare). */
function bareNames(registry: PolicyRegistry, kind: PolicyKind): string[] {
  return registry.names(kind).filter((name) => {
    try {
      registry.factory(kind, name)(policyContext({ numInstances: 4 }));
      return true;
    } catch {
      return false;
    }
  });
}

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const weight = fc.double({ min: 0.1, max: 10, noNaN: true });

/** A policy bundle as YAML would hold it (snake_case keys); see {@link policyBundleArb}. */
export interface PolicyBundleObject {
  admission?: { policy: string; token_bucket_capacity?: number; token_bucket_refill_rate?: number };
  routing?: { policy: string; scorers?: { name: string; weight: number }[] };
  priority?: { policy: string };
  scheduler?: string;
  preemption?: { policy: 'fcfs' | 'priority' };
  autoscaler?: { policy: string; interval_us: number; min_replicas: number; max_replicas: number; cooldown_us?: number };
}

/**
 * Any policy bundle object (the `--policy-config` YAML, parsed) that `parsePolicyBundle`
 * accepts against `registry` (default: the built-ins): admission, routing (weighted with a
 * set of distinct scorers, or any other router), priority, scheduler, preemption and autoscaler
 * sections, each present or absent, naming policies that need no parameters.
 */
export function policyBundleArb(registry: PolicyRegistry = defaultPolicyRegistry): fc.Arbitrary<PolicyBundleObject> {
  const names = (kind: PolicyKind) => fc.constantFrom(...bareNames(registry, kind));
  const scorerNames = registry.names('scorer');
  const routing = fc.oneof(
    names('routing').filter((n) => n !== 'weighted').map((policy) => ({ policy })),
    fc
      .uniqueArray(fc.constantFrom(...scorerNames), { minLength: 1, maxLength: Math.min(4, scorerNames.length) })
      .chain((picked) => fc.tuple(...picked.map((name) => weight.map((w) => ({ name, weight: w })))))
      .map((scorers) => ({ policy: 'weighted', scorers })),
  );
  const admission = names('admission').chain((policy) =>
    policy === 'token-bucket'
      ? fc.record({ policy: fc.constant(policy), token_bucket_capacity: fc.integer({ min: 1, max: 100_000 }), token_bucket_refill_rate: fc.integer({ min: 1, max: 10_000 }) })
      : fc.constant({ policy }),
  );
  const autoscaler = fc
    .record({ policy: names('autoscaler'), interval_us: fc.integer({ min: 0, max: 60_000_000 }), min_replicas: fc.nat(3), extra: fc.nat(8), cooldown_us: optional(fc.nat(600_000_000)) })
    .map(({ extra, cooldown_us, ...a }) => ({ ...a, max_replicas: Math.max(1, a.min_replicas + extra), ...(cooldown_us !== undefined ? { cooldown_us } : {}) }));
  return fc
    .record({
      admission: optional(admission),
      routing: optional(routing),
      priority: optional(names('priority').map((policy) => ({ policy }))),
      scheduler: optional(names('scheduler')),
      preemption: optional(fc.constantFrom('fcfs' as const, 'priority' as const).map((policy) => ({ policy }))),
      autoscaler: optional(autoscaler),
    })
    .map((b) => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) as PolicyBundleObject);
}
