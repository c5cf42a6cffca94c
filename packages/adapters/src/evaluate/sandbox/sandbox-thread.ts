// The evaluation thread of a candidate's code (see evaluate-sandbox.ts): requests in, answers
// out, one at a time, until the thread is ended.
import { parentPort } from 'node:worker_threads';
import { EvalRequestError } from '../candidate-error.js';
import { evaluate } from '../entry.js';
import type { SandboxCall, SandboxReply } from './sandbox-messages.js';

const port = parentPort;
if (port === null) throw new Error('sandbox-thread runs in a worker thread');

port.on('message', async (call: SandboxCall) => {
  let reply: SandboxReply;
  try {
    const response = await evaluate(call.request, call.memoryLimit !== undefined ? { memoryLimit: call.memoryLimit } : {});
    reply = { id: call.id, kind: 'response', response };
  } catch (e) {
    if (e instanceof EvalRequestError) reply = { id: call.id, kind: 'request-error', issues: e.issues };
    else reply = { id: call.id, kind: 'error', message: (e as Error)?.message ?? String(e), stack: (e as Error)?.stack };
  }
  // What the candidate wrote reaches the parent before the answer does: a worker's stdio goes
  // out a chunk at a time as the parent takes it, and a parent that has its answer may end the
  // thread (one-shot) with the rest still here.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  port.postMessage(reply);
});

/** Resolves once everything written to `stream` so far has been taken by the parent. */
function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}
// Loaded: from here on, the thread ending under a request is the candidate's doing.
port.postMessage({ id: -1, kind: 'ready' } satisfies SandboxReply);
