// The sandbox thread's loop (see evaluate-sandbox.ts): requests in, answers out, one at a time,
// until the thread is ended. Started by sandbox-thread.ts (this package's thread module), or by
// the `blis` binary's own thread entry, which loads it through V8's code cache and wants to know
// when the first answer is ready (to cache what that answer ran).
import type { MessagePort } from 'node:worker_threads';
import { warmCompiler } from '../candidate-compile.js';
import { EvalRequestError } from '../candidate-error.js';
import { evaluateAsHost } from '../entry.js';
import type { EvalResponse } from '../protocol.js';
import type { SandboxCall, SandboxReply } from './sandbox-messages.js';

/** What the host of a sandbox thread wants to hear of (see {@link serveSandbox}). */
export interface SandboxServeHooks {
  /**
   * Called with each response just before it is sent (the parent may end the thread as soon as
   * it has it). Must not throw.
   */
  beforeAnswer?: (response: EvalResponse) => void;
  /**
   * The host sends each call's candidate compiled (SandboxCall's `compiled`): esbuild's service
   * is not started ahead, for nothing. A call that comes without still compiles, only colder.
   */
  compilesAhead?: boolean;
}

/** Answers the calls arriving on `port` (the thread's `parentPort`), then says it has loaded. */
export function serveSandbox(port: MessagePort, hooks: SandboxServeHooks = {}): void {
  port.on('message', async (call: SandboxCall) => {
    let reply: SandboxReply;
    try {
      const response = await evaluateAsHost(call.request, {
        ...(call.memoryLimit !== undefined ? { memoryLimit: call.memoryLimit } : {}),
        ...(call.compiled !== undefined ? { compiled: call.compiled } : {}),
      });
      reply = { id: call.id, kind: 'response', response };
    } catch (e) {
      if (e instanceof EvalRequestError) reply = { id: call.id, kind: 'request-error', issues: e.issues };
      else reply = { id: call.id, kind: 'error', message: (e as Error)?.message ?? String(e), stack: (e as Error)?.stack };
    }
    // What the candidate wrote reaches the parent before the answer does: a worker's stdio goes
    // out a chunk at a time as the parent takes it, and a parent that has its answer may end the
    // thread (one-shot) with the rest still here.
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    if (reply.kind === 'response') hooks.beforeAnswer?.(reply.response);
    port.postMessage(reply);
  });
  // Loaded: from here on, the thread ending under a request is the candidate's doing.
  port.postMessage({ id: -1, kind: 'ready' } satisfies SandboxReply);
  // Every request compiles its candidate once in a fresh thread: get esbuild going while none has
  // come, unless the host compiles them.
  if (hooks.compilesAhead !== true) setImmediate(warmCompiler);
}

/** Resolves once everything written to `stream` so far has been taken by the parent. */
function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}
