import { simulate } from '@blis/cluster';
import { expectedRequests, failureIssues } from './run-outcome.js';
import type { RunRequest } from './run-request.js';
import { traceSource } from './trace-source.js';
import type { WorkerMessage } from './worker-messages.js';

// One run per worker: the page starts a fresh worker for each, so a run can be abandoned by
// terminating it.
const scope = self as unknown as { postMessage(m: WorkerMessage): void; onmessage: ((ev: MessageEvent<RunRequest>) => void) | null };
const post = (m: WorkerMessage) => scope.postMessage(m);

scope.onmessage = (ev) => {
  const { config, trace } = ev.data;
  try {
    const source = trace !== undefined ? traceSource(trace, config) : undefined;
    const total = source?.total ?? expectedRequests(config);
    let shown = -1;
    const step = Math.max(1, Math.floor((total ?? 1000) / 100));
    const t0 = performance.now();
    const result = simulate(config, {
      ...(source !== undefined ? { source: source.source } : {}),
      onProgress: (done) => {
        // A message per percent: posting on every call would cost more than the events.
        if (done - shown < step) return;
        shown = done;
        post({ type: 'progress', done, total });
      },
    });
    post({ type: 'done', result, elapsedMs: performance.now() - t0 });
  } catch (e) {
    post({ type: 'error', issues: failureIssues(e, config) });
  }
};
