import { describeExpected, customFound } from '@blis/workload/internal';
import type { ZodError } from 'zod';
import type { PageIssue } from './page-issue.js';

/** The form's label of each config field it sets, so issues name what the user sees. */
const LABELS: Record<string, string> = {
  seed: 'Seed',
  numInstances: 'Instances',
  model: 'Model',
  hardware: 'Hardware',
  timeseriesIntervalUs: 'Time series every (ms)',
  'workload.preset': 'Preset',
  'workload.rate': 'Rate (req/s)',
  'workload.numRequests': 'Requests',
  'workload.seed': 'Seed',
  'routing.policy': 'Routing',
  'routing.scorers': 'Scorers',
  'admission.policy': 'Admission',
  'priority.policy': 'Priority',
  'scheduler.policy': 'Scheduler',
};

/** The form label of a config path (`workload.rate` → `Rate (req/s) (workload.rate)`). */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const key = path.map(String).join('.');
  const label = LABELS[key] ?? LABELS[path.slice(0, 2).map(String).join('.')];
  return label !== undefined ? `${label} (${key})` : key || '(config)';
}

/**
 * A `SimulationConfigSchema` failure as page issues: the field's label, what the schema expected
 * (worded as for workload files) and the value given.
 */
export function configIssues(err: ZodError, input: unknown): PageIssue[] {
  return err.issues.map((i) => {
    let value: unknown = input;
    for (const k of i.path) value = value === null || typeof value !== 'object' ? undefined : (value as Record<PropertyKey, unknown>)[k];
    if (i.code === 'unrecognized_keys') return { where: fieldLabel([...i.path, i.keys[0]]), expected: 'a known field', found: `unknown field "${i.keys.join('", "')}"` };
    const found = customFound(i) ?? (value === undefined ? 'nothing' : JSON.stringify(value));
    return { where: fieldLabel(i.path), expected: describeExpected(i), found };
  });
}
