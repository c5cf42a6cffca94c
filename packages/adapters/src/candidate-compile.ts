/**
 * `@blis/adapters/candidate-compile`: a module candidate compiled as the evaluation compiles it,
 * for the `blis` binary's launcher, which compiles a one-shot request's candidate on its main
 * thread while the sandbox's thread loads, and hands the script over with the call. An entry of
 * its own so that the launcher's bundle takes this and nothing else of the package (it imports
 * Node's built-ins only; esbuild is loaded when a compile is asked for).
 *
 * UNSTABLE: no semver promise. Names here may change or disappear in any release.
 *
 * @module candidate-compile
 */

export { type CandidateLanguage, type CompiledCandidate, compileAhead } from './evaluate/candidate-build.js';
