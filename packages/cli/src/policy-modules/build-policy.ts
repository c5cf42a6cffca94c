import type { PolicyFactoryContext, PolicyKind } from '@blis/policies';
import { UsageError } from '../errors/usage-error.js';
import type { PolicyWatchdog } from '../policy-watchdog/index.js';
import type { LoadedFactory } from './import-factory.js';
import { POLICY_METHOD } from './module-path.js';

const an = (word: string) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

/**
 * Calls a module's factory and checks the policy has the contract's shape: a string `name` and
 * the kind's method. Under `watchdog`, a factory that never returns stops the run.
 */
export function buildPolicy(kind: PolicyKind, factory: LoadedFactory, where: string, ctx: PolicyFactoryContext, watchdog?: PolicyWatchdog): unknown {
  let policy: unknown;
  try {
    policy = watchdog === undefined ? factory(ctx) : watchdog.factory(where, () => factory(ctx));
  } catch (e) {
    throw new UsageError([{ where, expected: 'a factory that builds a policy', found: `it threw: ${e instanceof Error ? e.message : String(e)}` }]);
  }
  const method = POLICY_METHOD[kind];
  const p = policy as Record<string, unknown> | null;
  if (p === null || typeof p !== 'object' || typeof p.name !== 'string' || (method !== undefined && typeof p[method] !== 'function')) {
    const found = p === null || typeof p !== 'object' ? (p === null ? 'null' : typeof p) : JSON.stringify(Object.keys(p));
    throw new UsageError([{ where, expected: `${an(kind)} policy object with a string "name"${method !== undefined ? ` and ${an(method)}() method` : ''}`, found }]);
  }
  return policy;
}
