import type { CompiledCandidate } from '@blis/adapters/candidate-compile';
import type { EarlySandboxThread, SandboxCall, SandboxReply } from '@blis/adapters/internal';
import { memoryLimit } from '../commands/machine-memory.js';
import { markCandidateOutputShown } from './candidate-output.js';
import { peekEarlySandbox } from './early-sandbox.js';
import { candidateRequest, compiledAhead } from './launcher-request.js';
import { quietOnEpipe } from './quiet-epipe.js';
import { evaluatesStdinOnce, peekStdinHead } from './stdin-head.js';

/**
 * A one-shot `blis evaluate` whose request, read whole by the launcher, runs a candidate module
 * is answered here, by the thread the launcher started, without loading the CLI: the main thread
 * would load it (the CLI and the evaluation code it never runs, some 60 ms of CPU) only to pass
 * the request to that thread and print its answer, on the core the thread needs.
 *
 * Everything that is not the plain case goes to the command, which answers it as it always has
 * (`fallback`, which loads the CLI): a request the command would refuse or read otherwise (not
 * JSON, text that may be binary, another candidate kind, a malformed `BLIS_MEMORY_LIMIT`), a
 * request the thread finds malformed or fails on, and a thread that ended under the candidate
 * (process.exit, its heap exhausted). The command then evaluates the request again, from the
 * start, in the same thread when it still runs, in a fresh one when not; the evaluation is
 * deterministic, so its answer is the one this thread would have led to. What the candidate
 * wrote to stdout the first time was shown already (on stderr, as the command shows it); the
 * command does not show it twice.
 *
 * Returns false when the request is not for here (nothing was started; call the fallback).
 */
export function evaluateFromLauncher(args: readonly string[], fallback: () => void): boolean {
  if (!evaluatesStdinOnce(args)) return false;
  const early = peekEarlySandbox();
  const head = peekStdinHead();
  if (early === undefined || early.ended || head === undefined || !head.ended) return false;
  const request = candidateRequest(head);
  if (request === undefined) return false;
  let limit: ReturnType<typeof memoryLimit>;
  try {
    limit = memoryLimit(args.includes('--ignore-memory-limit'));
  } catch {
    return false;
  }
  // As EvaluateSandbox's first call: the run's estimate held to the thread's heap.
  const heap = { bytes: early.heapMb * 2 ** 20, what: "the evaluation sandbox's heap" };
  const call: SandboxCall = { id: 0, request, ...(limit !== undefined ? { memoryLimit: { ...limit, heap } } : {}) };
  answer(early, call, compiledAhead(), fallback);
  return true;
}

/**
 * Sends `call` to the thread once `ahead` (the launcher's compile of its candidate) has settled,
 * with the script when there is one (without, the thread compiles it, and says what it finds
 * wrong in its words), and prints the answer or hands over to `fallback`.
 */
function answer(early: EarlySandboxThread, call: SandboxCall, ahead: Promise<CompiledCandidate | undefined> | undefined, fallback: () => void): void {
  const { worker } = early;
  const forward = (chunk: Buffer) => process.stderr.write(chunk);
  worker.stdout.on('data', forward);
  let over = false;
  const stop = () => {
    over = true;
    worker.off('message', onReply);
    worker.off('error', onEnd);
    worker.off('exit', onEnd);
  };
  // The thread stays lent (this only looked at it): the command takes it if it still runs (a
  // malformed request, a fault of ours) and asks again, or starts another.
  const handOver = () => {
    stop();
    markCandidateOutputShown();
    if (!early.ended) {
      worker.stdout.off('data', forward);
      worker.unref();
    }
    fallback();
  };
  const onReply = (reply: SandboxReply) => {
    if (reply.id !== call.id) return;
    if (reply.kind !== 'response') {
      handOver();
      return;
    }
    stop();
    quietOnEpipe();
    process.stdout.write(`${JSON.stringify(reply.response)}\n`);
    void worker.terminate();
  };
  // Its own listeners (early-sandbox.ts) mark it ended first: they were added before these.
  const onEnd = () => handOver();
  worker.on('message', onReply);
  worker.on('error', onEnd);
  worker.on('exit', onEnd);
  // Held open while it works, as the sandbox does.
  worker.ref();
  // Not sent to a thread that ended meanwhile (the command has been handed the request).
  const send = (compiled?: CompiledCandidate) => {
    if (!over) worker.postMessage(compiled !== undefined ? { ...call, compiled } : call);
  };
  if (ahead === undefined) send();
  else ahead.then(send, () => send());
}
