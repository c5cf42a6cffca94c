import { type CandidateLanguage, candidateBuildOptions, esbuild } from './candidate-build.js';
import { InvalidCandidateError } from './candidate-error.js';

/**
 * Compiled scripts by language and text, the newest {@link CACHE_ENTRIES}: a search sends one
 * program to several stages (OpenEvolve's cascade) and GEPA re-sends unchanged components, and
 * a compile costs more than the 100-request simulation of a stage-1 filter.
 */
const compiled = new Map<string, string>();
const CACHE_ENTRIES = 64;

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
 * The candidate as one CommonJS script (candidate-build.ts says how), or an
 * {@link InvalidCandidateError} with esbuild's located errors in our words.
 */
export async function compileCandidate(text: string, language: CandidateLanguage, file: string): Promise<string> {
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
    const out = await build(candidateBuildOptions(text, language, file));
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
