import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

// How a module candidate is built, in one place for both of its compilers: the evaluation
// (candidate-compile.ts) and the `blis` binary's launcher, which compiles a one-shot request's
// candidate on its main thread while the sandbox's thread loads (the subpath
// `@blis/adapters/candidate-compile`). The two must produce the same script byte for byte, so
// this module imports nothing but Node's built-ins: the launcher's bundle stays small.

/** A module candidate's language, as the protocol names it. */
export type CandidateLanguage = 'typescript' | 'javascript';

/** The file name a module candidate's messages (and its compiled script) use. */
export function candidateFile(language: CandidateLanguage): string {
  return language === 'typescript' ? 'candidate.ts' : 'candidate.mjs';
}

/**
 * Where candidate imports resolve from: this file's folder (this package, whose dependencies
 * include @blis/policies). In the `blis` binary the launcher and the sandbox's bundle sit in the
 * same folder, so both of its compilers resolve from the same place.
 */
const resolveDir = dirname(fileURLToPath(import.meta.url));

type Esbuild = typeof import('esbuild');
let loaded: Esbuild | undefined;

/**
 * esbuild, loaded on first use: every `blis` command imports this package, few compile a module.
 * Through `require` (esbuild is CommonJS): the first `import()` in a thread cost some 40 ms more
 * (Node's module loader set up, esbuild's file scanned for its exports), on the path of a cold
 * `blis evaluate`. Throws when esbuild cannot be loaded.
 */
export function esbuild(): Esbuild {
  loaded ??= createRequire(import.meta.url)('esbuild') as Esbuild;
  return loaded;
}

/**
 * esbuild's options for the candidate: one CommonJS script whose `require` gets `@blis/policies`,
 * which stays outside (bundling it from its sources took ~55 ms a candidate, the candidate's own
 * code ~1 ms).
 */
export function candidateBuildOptions(text: string, language: CandidateLanguage, file: string = candidateFile(language)): BuildOptions & { write: false } {
  return {
    stdin: { contents: text, loader: language === 'typescript' ? 'ts' : 'js', resolveDir, sourcefile: file },
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // Sources in a checkout, the built files when installed (the published exports lack this condition).
    conditions: ['@blis/source'],
    external: ['node:*', '@blis/policies'],
    logLevel: 'silent',
  };
}

/**
 * A module candidate's script compiled ahead, away from the evaluation, with what it was compiled
 * from: the evaluation runs `script` instead of compiling when `language` and `text` are its
 * candidate's. Only a host's own code may hand one over (a field of the sandbox's call, never of
 * the request): the script is run as it is.
 */
export interface CompiledCandidate {
  /** The candidate's language (the protocol's default applied). */
  language: CandidateLanguage;
  /** The candidate's text, as the request has it. */
  text: string;
  /** esbuild's output: one CommonJS script. */
  script: string;
}

/**
 * Compiles the module candidate of an unvalidated request `candidate` as the evaluation would
 * (the protocol's default language included), for a host that has a core to spare before the
 * evaluation starts. Undefined, never a throw, when it is not a module candidate that can be read
 * so, or esbuild cannot load, or the text does not compile: the evaluation then compiles it
 * itself, and reports what it finds in its own words.
 */
export function compileAhead(candidate: unknown): Promise<CompiledCandidate | undefined> | undefined {
  const c = candidate as { kind?: unknown; text?: unknown; language?: unknown } | null | undefined;
  if (c?.kind !== 'policy-module' || typeof c.text !== 'string' || c.text === '') return undefined;
  const language = c.language ?? 'typescript';
  if (language !== 'typescript' && language !== 'javascript') return undefined;
  const text = c.text;
  try {
    return esbuild()
      .build(candidateBuildOptions(text, language))
      .then(
        (out) => ({ language, text, script: out.outputFiles[0].text }),
        () => undefined,
      );
  } catch {
    return undefined;
  }
}
