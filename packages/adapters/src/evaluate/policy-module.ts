import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInThisContext } from 'node:vm';
import type { PolicyFactoryContext } from '@blis/policies';
import { InvalidCandidateError } from './candidate-error.js';
import type { ModulePolicyKind } from './protocol.js';
import { importModule } from '../import-module.js';
import { BudgetSpent, WallBudgetExceeded } from './bounded-run.js';

/** The method each policy kind must have, used to find a module's kind when it is not given. */
export const POLICY_METHOD: Readonly<Record<ModulePolicyKind, string>> = {
  admission: 'admit',
  priority: 'priority',
  routing: 'route',
  decider: 'decide',
  autoscaler: 'evaluate',
};

export type PolicyFactory = (ctx: PolicyFactoryContext) => Record<string, unknown>;

/** Where candidate imports resolve from: this package, whose dependencies include @blis/policies. */
const resolveDir = dirname(fileURLToPath(import.meta.url));

/** Runs candidate code within what is left of the request's budget (see bounded-run.ts). */
export type Bounded = <T>(fn: () => T) => T;

/** `require` for the candidate's `node:*` imports, the only ones left outside its bundle. */
const candidateRequire = createRequire(import.meta.url);

/**
 * Compiles a candidate module (TypeScript or JavaScript) and returns its default export. The
 * text is bundled with esbuild so that imports of `@blis/policies` resolve without a file on
 * disk, as one CommonJS script: its top-level code then runs synchronously inside `bounded`,
 * where a module that never finishes loading can be stopped (an ES module's body runs from the
 * loader's own job, out of reach). Every failure is the candidate's: syntax and type-strip
 * errors with their line, a missing import, top-level await (a script has none), a top-level
 * throw, a default export that is not a function.
 */
export async function loadPolicyModule(text: string, language: 'typescript' | 'javascript', bounded: Bounded = (fn) => fn()): Promise<PolicyFactory> {
  const file = language === 'typescript' ? 'candidate.ts' : 'candidate.mjs';
  // Loaded on first use: every `blis` command imports this package, few compile a module.
  const { build } = await importModule<typeof import('esbuild')>('esbuild');
  let code: string;
  try {
    const out = await build({
      stdin: { contents: text, loader: language === 'typescript' ? 'ts' : 'js', resolveDir, sourcefile: file },
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      // Sources in a checkout, the built files when installed (the published exports lack this condition).
      conditions: ['@blis/source'],
      external: ['node:*'],
      logLevel: 'silent',
    });
    code = out.outputFiles[0].text;
  } catch (e) {
    const errors = (e as { errors?: { text: string; location?: { line: number; column: number } | null }[] }).errors ?? [];
    if (errors.length === 0) throw new InvalidCandidateError([{ where: file, expected: 'a module that compiles', found: (e as Error).message.split('\n')[0] }]);
    throw new InvalidCandidateError(
      errors.map((x) => {
        const where = x.location ? `${file}:${x.location.line}:${x.location.column + 1}` : file;
        // esbuild names its output format; say what it means for a candidate.
        if (/^Top-level await/.test(x.text)) return { where, expected: 'a module without top-level await (candidate modules load synchronously, within the request\'s budget)', found: 'a top-level await' };
        return { where, expected: 'a module that compiles', found: x.text };
      }),
    );
  }
  const mod: { exports: { default?: unknown } } = { exports: {} };
  try {
    // An ES module is strict mode; the script keeps it so.
    const body = runInThisContext(`(function (exports, require, module) {"use strict";${code}\n})`, { filename: file }) as (e: unknown, r: NodeRequire, m: unknown) => void;
    bounded(() => body(mod.exports, candidateRequire, mod));
  } catch (e) {
    if (e instanceof WallBudgetExceeded || e instanceof BudgetSpent) throw e;
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
