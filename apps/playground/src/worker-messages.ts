import type { SimulationResult } from '@blis/cluster';
import type { PageIssue } from './page-issue.js';

/** What the simulation worker posts back while it runs and when it is done. */
export type WorkerMessage =
  | { type: 'progress'; done: number; total: number | undefined }
  /** `elapsedMs`: wall-clock time of the run in the worker, shown beside (never inside) the result. */
  | { type: 'done'; result: SimulationResult; elapsedMs: number }
  | { type: 'error'; issues: PageIssue[] };
