import { Worker } from 'node:worker_threads';
import type { EarlySandboxThread } from '@blis/adapters/internal';
import { candidateRequest, startCompileAhead } from './launcher-request.js';
import { sandboxHeapMb } from './sandbox-heap.js';
import { type StdinHead, evaluatesStdinOnce, lendStdinHead, readStdinHead } from './stdin-head.js';

/** Where @blis/adapters' EvaluateSandbox looks for a thread started ahead of it (early-thread.ts). */
const GLOBAL = '__blisEarlySandbox';

/**
 * Whether the request may need the sandbox's thread, from what the launcher read of it: unless
 * all of it was read and the kind that runs candidate code is nowhere in it (a request read in
 * part, or not at all, may).
 */
export function mayNeedSandbox(head: StdinHead | undefined): boolean {
  return head === undefined || !head.ended || Buffer.concat(head.chunks).includes('policy-module');
}

/**
 * Starts the evaluation sandbox's thread from `threadFile` before the CLI has loaded, and lends
 * it to the first EvaluateSandbox that needs one, which takes it when its heap is the same. The
 * thread loads on another core meanwhile; a request that runs no candidate code (parameters,
 * policy texts, trees) never uses it, and it is ended when the process exits. Nothing is
 * started when the heap variable is malformed: the command refuses it. `compilesAhead`: the
 * launcher compiles the candidate the thread will run (the thread starts no compiler of its
 * own ahead). Returns whether a thread was started.
 */
export function startEarlySandbox(threadFile: string, env: NodeJS.ProcessEnv = process.env, compilesAhead = false): boolean {
  const heap = sandboxHeapMb(env);
  if (!('mb' in heap)) return false;
  // A one-shot call's thread parses one request (see sandbox-thread-entry.ts).
  const workerData = { parsesOnce: true, compilesAhead };
  const worker = new Worker(threadFile, { stdout: true, resourceLimits: { maxOldGenerationSizeMb: heap.mb }, workerData });
  const early: EarlySandboxThread = { worker, heapMb: heap.mb, ready: false, ended: false };
  // Listened to from the start: events with no listener are lost (an error would even be thrown).
  worker.on('message', (m: { kind?: unknown } | null) => {
    if (m?.kind === 'ready') early.ready = true;
  });
  worker.on('error', () => {
    early.ended = true;
  });
  worker.on('exit', () => {
    early.ended = true;
  });
  // Idle, it holds nothing open; the sandbox refs it while it works.
  worker.unref();
  (globalThis as { [GLOBAL]?: EarlySandboxThread })[GLOBAL] = early;
  return true;
}

/** The thread lent to the command, if any, left lent. */
export function peekEarlySandbox(): EarlySandboxThread | undefined {
  return (globalThis as { [GLOBAL]?: EarlySandboxThread })[GLOBAL];
}

/**
 * What the launcher does for `blis <args>` when the command is `evaluate` (one-shot; nothing for
 * `--serve`): a request on stdin is read now, to know whether it can need the thread a candidate's code runs in (the
 * command reads on from what was read), and a thread that may be needed starts now, to load on
 * another core while the main thread loads the CLI. A request the launcher will answer itself
 * (launcher-evaluate.ts) has its candidate compiled meanwhile, here.
 */
export function startEvaluate(args: readonly string[], threadFile: string): void {
  // A --serve child pays a thread's start-up once, when its first module candidate comes: a
  // search of policy texts or parameters (GEPA's example) never needs one, and a thread started
  // for nothing cost such a child a sixth of its CPU time over ten requests.
  if (args.includes('--serve')) return;
  const head = evaluatesStdinOnce(args) ? readStdinHead() : undefined;
  if (head !== undefined) lendStdinHead(head);
  if (!mayNeedSandbox(head) || args.includes('--help') || args.includes('-h')) return;
  // Read whole (and so on stdin only): the launcher's own case, when it is a candidate module.
  const request = head?.ended === true ? candidateRequest(head) : undefined;
  // The thread first: its start-up is the longer path, the compile fits within it.
  if (startEarlySandbox(threadFile, process.env, request !== undefined) && request !== undefined) startCompileAhead(request);
}
