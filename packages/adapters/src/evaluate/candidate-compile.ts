import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidCandidateError } from './candidate-error.js';

/** Where candidate imports resolve from: this package, whose dependencies include @blis/policies. */
const resolveDir = dirname(fileURLToPath(import.meta.url));

/**
 * Compiled scripts by language and text, the newest {@link CACHE_ENTRIES}: a search sends one
 * program to several stages (OpenEvolve's cascade) and GEPA re-sends unchanged components, and
 * a compile costs more than the 100-request simulation of a stage-1 filter.
 */
const compiled = new Map<string, string>();
const CACHE_ENTRIES = 64;

type Esbuild = typeof import('esbuild');
let loaded: Esbuild | undefined;

/**
 * esbuild, loaded on first use: every `blis` command imports this package, few compile a module.
 * Through `require` (esbuild is CommonJS): the first `import()` in a thread cost some 40 ms more
 * (Node's module loader set up, esbuild's file scanned for its exports), on the path of a cold
 * `blis evaluate`, whose sandbox thread imports nothing else.
 */
function esbuild(): Esbuild {
  loaded ??= createRequire(import.meta.url)('esbuild') as Esbuild;
  return loaded;
}

/**
 * Loads esbuild and starts its service (a child process, which holds nothing open) ahead of a
 * first compile: the evaluation sandbox's thread does it while it waits for its first request,
 * every request it gets compiles once. A failure is left for the compile to report.
 */
export function warmCompiler(): void {
  try {
    esbuild().initialize({}).catch(() => {});
  } catch {
    // The compile meets it again, and says so.
  }
}

/**
 * The candidate as one CommonJS script (its `require` gets `@blis/policies`, which stays outside:
 * bundling it from its sources took ~55 ms a candidate, the candidate's own code ~1 ms), or an
 * {@link InvalidCandidateError} with esbuild's located errors in our words.
 */
export async function compileCandidate(text: string, language: 'typescript' | 'javascript', file: string): Promise<string> {
  const key = `${language}\0${text}`;
  const hit = compiled.get(key);
  if (hit !== undefined) {
    compiled.delete(key);
    compiled.set(key, hit);
    return hit;
  }
  const { build } = esbuild();
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
      external: ['node:*', '@blis/policies'],
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
        if (/^Top-level await/.test(x.text)) return { where, expected: "a module without top-level await (candidate modules load synchronously, within the request's budget)", found: 'a top-level await' };
        return { where, expected: 'a module that compiles', found: x.text };
      }),
    );
  }
  compiled.set(key, code);
  if (compiled.size > CACHE_ENTRIES) compiled.delete(compiled.keys().next().value as string);
  return code;
}
