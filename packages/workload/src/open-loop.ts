import { isClosedLoop } from './sessions/session-draws.js';
import type { LoadedSpec } from './spec-load.js';

/**
 * Whether the request stream of `spec` is fixed before the run: no closed-loop session and no
 * concurrency user, whose later requests wait for earlier ones to finish, and no
 * `inference_perf` plan (its own generator). Such a stream is the same whatever the simulated
 * cluster does with it, so it can be generated once and replayed.
 */
export function isOpenLoopSpec(spec: LoadedSpec): boolean {
  if (spec.inferencePerf !== undefined) return false;
  return spec.clients.every((c) => (c.concurrency ?? 0) <= 0 && (c.reasoning?.multi_turn === undefined || !isClosedLoop(c)));
}
