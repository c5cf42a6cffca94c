import { type CompiledCandidate, compileAhead } from '@blis/adapters/candidate-compile';
import type { StdinHead } from './stdin-head.js';

// The request a one-shot `blis evaluate` read whole from stdin, when the launcher answers it
// itself (launcher-evaluate.ts), and its candidate, compiled on the launcher's main thread while
// the sandbox's thread loads its bundle: the main thread would only wait meanwhile, and the
// thread would otherwise start esbuild and compile after loading, on the request's path.

let parsed: { head: StdinHead; request: unknown } | undefined;
let compiled: Promise<CompiledCandidate | undefined> | undefined;

/**
 * The request in `head` (read whole), when it is one the command would send to the thread as it
 * is: JSON of a `policy-module` candidate, and text with nothing the command's binary-data
 * check could object to (control characters other than tab and line ends, DEL, U+FFFD from
 * bytes that are not UTF-8). Parsed once for both of the launcher's steps.
 */
export function candidateRequest(head: StdinHead): unknown {
  if (parsed?.head !== head) parsed = { head, request: parseCandidateRequest(Buffer.concat(head.chunks).toString('utf8')) };
  return parsed.request;
}

function parseCandidateRequest(text: string): unknown {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f || c === 0xfffd) return undefined;
  }
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return undefined;
  }
  return (request as { candidate?: { kind?: unknown } } | null)?.candidate?.kind === 'policy-module' ? request : undefined;
}

/** Starts compiling `request`'s candidate (see compileAhead: a failure is left to the thread). */
export function startCompileAhead(request: unknown): void {
  compiled = compileAhead((request as { candidate?: unknown }).candidate);
}

/** The compile {@link startCompileAhead} started, if any; it settles undefined when it failed. */
export function compiledAhead(): Promise<CompiledCandidate | undefined> | undefined {
  return compiled;
}
