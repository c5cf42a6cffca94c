import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PolicyFactoryContext } from '@blis/policies';
import { InvalidCandidateError } from './candidate-error.js';
import type { ModulePolicyKind } from './protocol.js';
import { importModule } from '../import-module.js';

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

/**
 * Compiles a candidate module (TypeScript or JavaScript) and returns its default export. The
 * text is bundled with esbuild so that imports of `@blis/policies` resolve without a file on
 * disk, then imported from a `data:` URL. Every failure is the candidate's: syntax and type-strip
 * errors with their line, a missing import, a top-level throw, a default export that is not a
 * function.
 */
export async function loadPolicyModule(text: string, language: 'typescript' | 'javascript'): Promise<PolicyFactory> {
  const file = language === 'typescript' ? 'candidate.ts' : 'candidate.mjs';
  // Loaded on first use: every `blis` command imports this package, few compile a module.
  const { build } = await importModule<typeof import('esbuild')>('esbuild');
  let code: string;
  try {
    const out = await build({
      stdin: { contents: text, loader: language === 'typescript' ? 'ts' : 'js', resolveDir, sourcefile: file },
      bundle: true,
      write: false,
      format: 'esm',
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
      errors.map((x) => ({ where: x.location ? `${file}:${x.location.line}:${x.location.column + 1}` : file, expected: 'a module that compiles', found: x.text })),
    );
  }
  let mod: { default?: unknown };
  try {
    mod = await importModule<{ default?: unknown }>(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  } catch (e) {
    throw new InvalidCandidateError([{ where: file, expected: 'a module that loads', found: `it threw: ${(e as Error).message.split('\n')[0]}` }]);
  }
  if (typeof mod.default !== 'function')
    throw new InvalidCandidateError([{ where: `${file} default export`, expected: 'a policy factory function (ctx) => policy', found: mod.default === undefined ? 'no default export' : typeof mod.default }]);
  return mod.default as PolicyFactory;
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
