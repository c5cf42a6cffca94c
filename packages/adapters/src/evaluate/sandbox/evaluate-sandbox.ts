import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { EvalRequestError } from '../candidate-error.js';
import type { EvaluateOptions } from '../evaluate.js';
import { candidateFailedResponse } from '../evaluate.js';
import { evaluate } from '../entry.js';
import type { EvalResponse } from '../protocol.js';
import { discardEarlyThread, takeEarlyThread } from './early-thread.js';
import { sandboxThreadUrl } from './sandbox-file.js';
import type { SandboxCall, SandboxReply } from './sandbox-messages.js';

/** Where a candidate's own code runs: the only kind that can allocate, exit or write at will. */
export function runsCandidateCode(request: unknown): boolean {
  return (request as { candidate?: { kind?: unknown } } | null)?.candidate?.kind === 'policy-module';
}

/**
 * The sandbox thread's heap (MiB): a search's scenarios need tens to hundreds; code allocating
 * without bound reaches it in seconds (this process's own, about 4 GiB, took half a minute).
 */
export const SANDBOX_HEAP_MB = 2048;

export interface EvaluateSandboxOptions {
  /** The thread's heap, in MiB (default {@link SANDBOX_HEAP_MB}, at most this process's own). */
  heapMb?: number;
  /** Where what the candidate writes to stdout goes (default: this process's stderr). */
  onStdout?: (chunk: Buffer) => void;
}

type Pending = { call: SandboxCall; resolve: (r: EvalResponse) => void; reject: (e: unknown) => void };

type Thread = { worker: Worker; ready: boolean };

/**
 * Evaluates requests whose candidate is code in a worker thread of its own, so that the code
 * cannot take the evaluator with it: a heap exhausted ends the thread (V8's resource limit), not
 * the process; `process.exit` in a worker thread ends that thread; what it writes to stdout
 * arrives here (`onStdout`) instead of among the protocol's lines. Each of these is answered
 * `invalid_candidate` with what happened, and the next request gets a fresh thread. Other
 * requests (parameters, policy texts, trees: no code of the candidate's) are evaluated here, in
 * this thread. Requests are answered one at a time, in order. The first thread may be one
 * started ahead by the host (early-thread.ts), taken when its heap is this sandbox's.
 */
export class EvaluateSandbox {
  private current: Thread | undefined;
  private pending: Pending | undefined;
  private nextId = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly heapMb: number;
  private readonly onStdout: (chunk: Buffer) => void;

  constructor(options: EvaluateSandboxOptions = {}) {
    this.heapMb = options.heapMb ?? Math.min(SANDBOX_HEAP_MB, Math.ceil(getHeapStatistics().heap_size_limit / 2 ** 20));
    this.onStdout = options.onStdout ?? ((chunk) => process.stderr.write(chunk));
  }

  evaluate(request: unknown, options: Pick<EvaluateOptions, 'memoryLimit'> = {}): Promise<EvalResponse> {
    if (!runsCandidateCode(request)) return evaluate(request, options);
    const run = this.queue.then(() => this.inThread(request, options));
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * Ends the thread (a stuck one too), and a thread lent to it that it never took
   * (early-thread.ts); the sandbox starts another if asked again.
   */
  async close(): Promise<void> {
    const t = this.current;
    this.current = undefined;
    await Promise.all([discardEarlyThread(), t?.worker.terminate()]);
  }

  private inThread(request: unknown, options: Pick<EvaluateOptions, 'memoryLimit'>): Promise<EvalResponse> {
    const { worker } = this.thread();
    // The run's memory estimate is held to the thread's heap, so that a scenario too large for it
    // is refused as such before it runs, and running out of it is the candidate's doing.
    const limit = options.memoryLimit;
    const heap = { bytes: this.heapMb * 2 ** 20, what: "the evaluation sandbox's heap" };
    const call: SandboxCall = { id: this.nextId++, request, ...(limit !== undefined ? { memoryLimit: { ...limit, heap } } : {}) };
    // Held open while it works (the caller may wait on nothing else), let go between requests.
    worker.ref();
    return new Promise<EvalResponse>((resolve, reject) => {
      this.pending = { call, resolve, reject };
      worker.postMessage(call);
    });
  }

  private thread(): Thread {
    if (this.current !== undefined) return this.current;
    const early = takeEarlyThread(this.heapMb);
    const worker = early?.worker ?? new Worker(sandboxThreadUrl(), { stdout: true, resourceLimits: { maxOldGenerationSizeMb: this.heapMb } });
    const t: Thread = { worker, ready: early?.ready ?? false };
    worker.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
    worker.on('message', (reply: SandboxReply) => {
      if (reply.kind === 'ready') {
        t.ready = true;
        return;
      }
      const p = this.pending;
      if (p === undefined || p.call.id !== reply.id) return;
      this.pending = undefined;
      worker.unref();
      if (reply.kind === 'response') p.resolve(reply.response);
      else if (reply.kind === 'request-error') p.reject(new EvalRequestError(reply.issues));
      else p.reject(Object.assign(new Error(reply.message), { stack: reply.stack }));
    });
    worker.on('error', (e: Error & { code?: string }) =>
      this.lost(t, e, e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `ran out of the evaluation's heap (${this.heapMb} MiB): it allocates without bound` : `threw outside any decision: ${e.message}`),
    );
    worker.on('exit', (code) => this.lost(t, undefined, `ended the evaluation (process.exit(${code}))`));
    this.current = t;
    return t;
  }

  /**
   * The thread ended under a request: the candidate's doing once the thread had loaded (a thread
   * that could not even load is a fault of ours, raised as such).
   */
  private lost(t: Thread, error: Error | undefined, found: string): void {
    if (this.current === t) this.current = undefined;
    const p = this.pending;
    if (p === undefined) return;
    this.pending = undefined;
    void t.worker.terminate();
    if (!t.ready) {
      p.reject(error ?? new Error(`the evaluation sandbox's thread ended before it loaded (${found})`));
      return;
    }
    try {
      p.resolve(candidateFailedResponse(p.call.request, found));
    } catch (e) {
      p.reject(e);
    }
  }
}
