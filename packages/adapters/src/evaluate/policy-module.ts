import { createRequire } from 'node:module';
import { runInThisContext } from 'node:vm';
import * as policies from '@blis/policies';
import type { PolicyFactoryContext } from '@blis/policies';
import { InvalidCandidateError } from './candidate-error.js';
import type { ModulePolicyKind } from './protocol.js';

/** The method each policy kind must have, used to find a module's kind when it is not given. */
export const POLICY_METHOD: Readonly<Record<ModulePolicyKind, string>> = {
  admission: 'admit',
  priority: 'priority',
  routing: 'route',
  decider: 'decide',
  autoscaler: 'evaluate',
};

export type PolicyFactory = (ctx: PolicyFactoryContext) => Record<string, unknown>;

const nodeRequire = createRequire(import.meta.url);

/**
 * The candidate's `require`: `@blis/policies` is this process's own (the contract's helpers and
 * views; one copy, nothing to compile), `node:*` built-ins are Node's.
 */
function candidateRequire(id: string): unknown {
  return id === '@blis/policies' ? policies : nodeRequire(id);
}

/**
 * Runs a compiled candidate module (compileCandidate's script) and returns its default export.
 * Synchronous, so that the caller can run it within the request's budget (an ES module's body
 * runs from the loader's own job, out of reach), and afresh for every request, so no state
 * carries over from another evaluation. A top-level throw and a default export that is not a
 * function are the candidate's faults.
 */
export function instantiatePolicyModule(code: string, file: string): PolicyFactory {
  const mod: { exports: { default?: unknown } } = { exports: {} };
  try {
    // An ES module is strict mode; the script keeps it so.
    const body = runInThisContext(`(function (exports, require, module) {"use strict";${code}\n})`, { filename: file }) as (e: unknown, r: (id: string) => unknown, m: unknown) => void;
    body(mod.exports, candidateRequire, mod);
  } catch (e) {
    throw new InvalidCandidateError([{ where: file, expected: 'a module that loads', found: `it threw: ${(e as Error)?.message?.split('\n')[0] ?? String(e)}` }]);
  }
  const factory = mod.exports.default;
  if (typeof factory !== 'function')
    throw new InvalidCandidateError([{ where: `${file} default export`, expected: 'a policy factory function (ctx) => policy', found: factory === undefined ? 'no default export' : typeof factory }]);
  return factory as PolicyFactory;
}

/** The kind a policy object implements, from its methods; ambiguous or none is an error. */
export function policyKindOf(policy: Record<string, unknown>, file: string): ModulePolicyKind {
  const kinds = (Object.keys(POLICY_METHOD) as ModulePolicyKind[]).filter((k) => typeof policy[POLICY_METHOD[k]] === 'function');
  if (kinds.length === 1) return kinds[0];
  throw new InvalidCandidateError([
    {
      where: `${file} policy`,
      expected: `exactly one of the methods ${Object.values(POLICY_METHOD).map((m) => `${m}()`).join(', ')} (or give candidate.policy_kind)`,
      found: kinds.length === 0 ? `the keys ${JSON.stringify(Object.keys(policy))}` : `${kinds.map((k) => `${POLICY_METHOD[k]}()`).join(' and ')}`,
    },
  ]);
}
