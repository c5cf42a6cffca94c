import { RunLimitError, type SimulationConfigInput } from '@blis/cluster';
import { TraceReadError, WorkloadSpecError } from '@blis/workload';
import { ZodError } from 'zod';
import { configIssues, fieldLabel } from './config-issues.js';
import { type PageIssue, PageInputError, fromInputIssue } from './page-issue.js';

/**
 * Any failure of a run as page issues: input errors keep their place (file, line, field); anything
 * else is the simulator refusing the combination (e.g. a model without coefficients for a GPU).
 */
export function failureIssues(e: unknown, config: SimulationConfigInput): PageIssue[] {
  if (e instanceof PageInputError) return e.issues;
  if (e instanceof ZodError) return configIssues(e, config);
  if (e instanceof WorkloadSpecError || e instanceof TraceReadError) return e.issues.map(fromInputIssue);
  // A run too large for a browser tab as well: name the form's field and the limit.
  if (e instanceof RunLimitError)
    return e.issues.map((i) => ({ where: i.file !== undefined ? `${i.file} ${i.path.join('.')}` : i.path.length === 0 ? 'memory estimate' : fieldLabel(i.path), expected: i.expected, found: i.found }));
  return [{ where: 'simulation', expected: 'a configuration the simulator accepts', found: e instanceof Error ? e.message : String(e) }];
}

/** How many requests the run will inject, when the config says (for the progress bar). */
export function expectedRequests(config: SimulationConfigInput): number | undefined {
  const w = config.workload;
  if (w === undefined) return 100;
  if (w.kind === 'synthetic') return w.numRequests ?? 100;
  if (w.kind === 'spec') return w.numRequests ?? (w.spec as { num_requests?: number } | undefined)?.num_requests;
  return w.maxRequests;
}
