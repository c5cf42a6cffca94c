import type { SimulationConfigInput } from '@blis/cluster';
import { formatParamPath } from '@blis/policies/internal';
import type { Candidate } from './candidates.js';
import { buildTasks } from './sweep-plan.js';
import { defaultWorkers, runTasks } from './sweep-runner.js';
import type { SweepTask } from './sweep-task.js';

/** One routing policy `compare` runs: a built-in name, or a module whose default export builds the policy. */
export interface ComparePolicy {
  /** What the table calls it: the name or the path as given. */
  label: string;
  /** A built-in routing policy name (set as `routing.policy`). */
  name?: string;
  /** Path of an ES module with a routing policy factory (loaded in the thread that runs it). */
  module?: string;
}

/** The metrics of one policy: the mean over seeds, and each seed's. */
export interface ComparePolicyResult {
  policy: string;
  metrics: Record<string, number | null>;
  per_seed: { seed: number; metrics: Record<string, number | null> }[];
}

/** How to run a comparison. */
export interface CompareOptions {
  seeds: readonly number[];
  metrics: readonly string[];
  /** Leave a spec workload's own seed alone (the seeds then vary the simulation, not the workload). */
  keepWorkloadSeed?: boolean;
  workers?: number;
  /** Refuse, before any worker starts, runs that would not fit this memory `workers` at a time. */
  memoryLimit?: { bytes: number; what: string };
  onProgress?: (done: number, total: number) => void;
}

/** The tasks of a comparison: one per policy and seed, on the same base config; validated before any runs. */
export function planCompare(base: SimulationConfigInput, policies: readonly ComparePolicy[], opts: Pick<CompareOptions, 'seeds' | 'metrics' | 'keepWorkloadSeed' | 'workers' | 'memoryLimit'>): SweepTask[] {
  const candidates = policies.map((p, index): Candidate => ({ index, values: p.name !== undefined ? { 'routing.policy': p.name } : {} }));
  return buildTasks(
    base as Record<string, unknown>,
    candidates,
    opts.seeds,
    opts.metrics,
    { parameterWhere: () => '--policies', baseWhere: (p) => `config ${formatParamPath(p, '')}`, describe: (c) => `policy ${policies[c.index].label}` },
    (c) => (policies[c.index].module !== undefined ? { routingModule: policies[c.index].module } : {}),
    opts.keepWorkloadSeed === true,
    opts.memoryLimit !== undefined ? { limit: opts.memoryLimit, workers: opts.workers ?? defaultWorkers() } : undefined,
  );
}

/**
 * Runs several routing policies on one workload (RouteSim's `compare`): every policy sees the
 * same config and seeds, so the rows differ by the policy alone. A metric's mean over seeds is
 * null when any seed has none.
 */
export async function runCompare(base: SimulationConfigInput, policies: readonly ComparePolicy[], opts: CompareOptions): Promise<ComparePolicyResult[]> {
  const tasks = planCompare(base, policies, opts);
  let done = 0;
  const rows = await runTasks(tasks, { workers: opts.workers, onRow: () => opts.onProgress?.(++done, tasks.length) });
  return policies.map((p, i) => {
    const mine = rows.filter((r) => r.candidate === i);
    const metrics: Record<string, number | null> = {};
    for (const m of opts.metrics) {
      const vs = mine.map((r) => r.metrics[m]);
      metrics[m] = vs.some((v) => v === null) ? null : (vs as number[]).reduce((a, b) => a + b, 0) / vs.length;
    }
    return { policy: p.label, metrics, per_seed: mine.map((r) => ({ seed: r.seed, metrics: r.metrics })) };
  });
}

/** An aligned text table of a comparison: one line per policy, one column per metric (means over seeds). */
export function compareTable(results: readonly ComparePolicyResult[], metrics: readonly string[]): string {
  const header = ['policy', ...metrics];
  const cells = results.map((r) => [r.policy, ...metrics.map((m) => formatNumber(r.metrics[m]))]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (cs: string[]) => cs.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

function formatNumber(v: number | null): string {
  if (v === null) return '-';
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(1) : v.toFixed(3);
}
