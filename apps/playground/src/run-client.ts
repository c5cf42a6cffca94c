import type { SimulationResult } from '@blis/cluster';
import { PageInputError } from './page-issue.js';
import type { RunRequest } from './run-request.js';
import type { WorkerMessage } from './worker-messages.js';

/** A finished run: the result and how long the worker took (wall clock, for display only). */
export interface FinishedRun {
  result: SimulationResult;
  elapsedMs: number;
}

/**
 * Runs one simulation in a fresh Web Worker, so the page stays responsive; rejects with a
 * PageInputError when the worker refuses the inputs.
 */
export function runInWorker(request: RunRequest, onProgress: (done: number, total: number | undefined) => void): Promise<FinishedRun> {
  const worker = new Worker(new URL('./sim-worker.ts', import.meta.url), { type: 'module' });
  return new Promise<FinishedRun>((resolve, reject) => {
    worker.onmessage = (ev: MessageEvent<WorkerMessage>) => {
      const m = ev.data;
      if (m.type === 'progress') return onProgress(m.done, m.total);
      worker.terminate();
      if (m.type === 'done') resolve({ result: m.result, elapsedMs: m.elapsedMs });
      else reject(new PageInputError(m.issues));
    };
    worker.onerror = (ev) => {
      worker.terminate();
      reject(new PageInputError([{ where: 'simulation worker', expected: 'a worker that starts', found: ev.message || 'a worker error' }]));
    };
    worker.postMessage(request);
  });
}
