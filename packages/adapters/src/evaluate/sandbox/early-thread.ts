import type { Worker } from 'node:worker_threads';

/**
 * A sandbox thread started before anything asked for one. The `blis` binary's launcher starts
 * one when the command is `evaluate`, so that the thread loads on another core while the main
 * thread loads the CLI and reads the request, and lends it as `globalThis.__blisEarlySandbox`;
 * the first `EvaluateSandbox` that needs a thread takes it. The lender starts it as the sandbox
 * starts its own (a module that runs `serveSandbox`, `stdout: true`, `heapMb` as the old
 * generation's limit) and listens to it from the start, so that nothing it says before it is
 * taken is lost.
 */
export interface EarlySandboxThread {
  /** The thread. */
  worker: Worker;
  /** The heap it was started with, in MiB (`resourceLimits.maxOldGenerationSizeMb`). */
  heapMb: number;
  /** It has said it loaded (its `ready` message can come before it is taken). */
  ready: boolean;
  /** It ended (an error, an exit) before it was taken. */
  ended: boolean;
}

const GLOBAL = '__blisEarlySandbox';

/** The lent thread, which is no longer lent. */
function borrow(): EarlySandboxThread | undefined {
  const g = globalThis as { [GLOBAL]?: EarlySandboxThread };
  const early = g[GLOBAL];
  delete g[GLOBAL];
  return early;
}

/**
 * The lent thread, once, if it was started with this heap and still runs; one that cannot serve
 * is ended (a heap set otherwise, as `BLIS_EVAL_SANDBOX_HEAP_MB` may, must not be adopted).
 */
export function takeEarlyThread(heapMb: number): EarlySandboxThread | undefined {
  const early = borrow();
  if (early === undefined) return undefined;
  if (early.ended || early.heapMb !== heapMb) {
    void early.worker.terminate();
    return undefined;
  }
  return early;
}

/** Ends the lent thread if no sandbox took it (a sandbox closing having never needed one). */
export async function discardEarlyThread(): Promise<void> {
  await borrow()?.worker.terminate();
}
