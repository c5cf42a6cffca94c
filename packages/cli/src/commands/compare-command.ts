import { describeFound } from '@blis/policies/internal';
import { DEFAULT_SWEEP_METRICS, compareTable, defaultWorkers, metricNameProblem } from '@blis/adapters/internal';
import { resolve } from 'node:path';
import { type ComparePolicy, runCompare } from '@blis/adapters';
import type { SimulationConfigInput } from '@blis/cluster';
import { listPolicies } from '@blis/policies';
import { buildConfig } from '../config/build-config.js';
import { type PolicySetup, customRuntime, isModulePath, loadModule, preparePolicies } from '../policy-modules/index.js';
import { type FlagDef, parseFlags } from '../flags/flags.js';
import { stringifyResult } from '../output/json-output.js';
import { TaskProgress } from '../output/task-progress.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import { asUsageErrorsAsync } from './usage-errors.js';
import { parseWorkers } from './workers-flag.js';
import { memoryLimit } from './machine-memory.js';

/**
 * `blis compare --policies a,b,c`: the `blis run` config with each routing policy in turn, on
 * the same workload and seeds. Per-policy metrics (means over seeds, and each seed's) as JSON on
 * stdout, an aligned table on stderr.
 */
export async function runCompareCommand(defs: readonly FlagDef[], rawOpts: Record<string, unknown>, workloadFrom: (flags: Record<string, unknown>) => SimulationConfigInput['workload']): Promise<void> {
  const flags = parseFlags(defs, rawOpts);
  // Runs happen on worker threads, which load only the routing module --policies names.
  const modules = ['admissionPolicy', 'priorityPolicy', 'scheduler', 'pdDecider', 'autoscalerPolicy'].filter((k) => typeof flags[k] === 'string' && isModulePath(flags[k] as string));
  if (modules.length > 0)
    throw new UsageError(modules.map((k) => ({ where: `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, expected: 'a built-in policy with `blis compare` (only --policies takes module paths)', found: describeFound(flags[k]) })));
  const setup = await preparePolicies(flags);
  // Worker threads get plain data: modules from the policy YAML or scorer modules cannot follow.
  const sources = Object.entries(setup.sources);
  if (sources.length > 0)
    throw new UsageError(sources.map(([kind, path]) => ({ where: kind === 'scorer' ? '--routing-scorers' : '--policy-config', expected: `built-in ${kind === 'scorer' ? 'scorers' : 'policies'} with \`blis compare\` (only --policies takes module paths)`, found: describeFound(path) })));
  const routingParams = setup.flagParams.byKind.routing;
  const policies = await parsePolicies(rawOpts.policies, flags, setup);
  const seeds = parseSeeds(rawOpts.seeds);
  const metrics = parseMetrics(rawOpts.metrics);
  const workers = parseWorkers(rawOpts.workers) ?? defaultWorkers();
  // --policy-param routing.* goes to every policy compared (a built-in checks them when the runs are planned).
  const built = buildConfig(flags, workloadFrom(flags), { ...setup, flagParams: { ...setup.flagParams, byKind: { ...setup.flagParams.byKind, routing: undefined } } });
  const base = routingParams === undefined ? built : { ...built, routing: { ...built.routing, params: { ...built.routing?.params, ...routingParams } } };
  if (metrics.includes('fitness.score') && base.fitnessWeights === undefined)
    throw new UsageError([{ where: '--metrics', expected: '--fitness-weights for the fitness.score metric', found: 'no --fitness-weights' }]);
  const quiet = flags.quiet === true;
  const bar = new TaskProgress('runs', !quiet);
  const results = await asUsageErrorsAsync(() =>
    runCompare(base, policies, {
      // Without --seeds the run's own seed, so each row is what `blis run` prints for that policy.
      seeds: seeds ?? [(flags.seed as number | undefined) ?? 42],
      keepWorkloadSeed: seeds === undefined,
      metrics,
      workers,
      memoryLimit: memoryLimit(flags.ignoreMemoryLimit === true),
      onProgress: (d, t) => bar.update(d, t),
    }),
  );
  bar.finish();
  if (!quiet) process.stderr.write(`${compareTable(results, metrics)}\n`);
  process.stdout.write(stringifyResult(results));
}

/** `--policies a,b,./p.mjs`: built-in routing policy names or module paths, each checked before any run. */
async function parsePolicies(raw: unknown, flags: Record<string, unknown>, setup: PolicySetup): Promise<ComparePolicy[]> {
  const items = typeof raw === 'string' ? raw.split(',').map((s) => s.trim()) : [];
  // No name at all (``, `,`, ` , `) is one problem, not one per empty entry.
  if (typeof raw !== 'string' || items.every((i) => i === ''))
    throw new UsageError([{ where: '--policies', expected: 'a comma-separated list of routing policies (built-in names or ./module.mjs paths)', found: raw === undefined ? 'nothing' : describeFound(raw) }]);
  const known = listPolicies().routing;
  const issues: UsageIssue[] = [];
  const out: ComparePolicy[] = [];
  const seen = new Set<string>();
  if (items.includes('')) issues.push({ where: '--policies', expected: 'a policy name between every two commas', found: `${describeFound(raw)} (an empty entry)` });
  for (const item of items) {
    if (item === '') continue;
    if (seen.has(item)) {
      // Once per name, however often it repeats.
      const twice = { where: '--policies', expected: 'distinct policy names', found: `${describeFound(item)} more than once` };
      if (!issues.some((i) => i.found === twice.found)) issues.push(twice);
      continue;
    }
    seen.add(item);
    if (isModulePath(item)) {
      // Built once here so a broken module fails before the runs; each run builds its own.
      const routing = await loadModule('routing', item, '--policies', { ...setup.flagParams.byKind.routing });
      customRuntime({ ...setup, modules: { routing } }, { seed: (flags.seed as number | undefined) ?? 42, numInstances: (flags.numInstances as number | undefined) ?? 1, blockSizeTokens: (flags.blockSizeInTokens as number | undefined) ?? 16 });
      out.push({ label: item, module: resolve(item) });
    } else if (known.includes(item)) out.push({ label: item, name: item });
    else issues.push({ where: '--policies', expected: `built-in routing policies (${known.join(', ')}), ./module.mjs paths or decision-tree .yaml paths`, found: describeFound(item) });
  }
  if (issues.length > 0) throw new UsageError(issues);
  return out;
}

/** `--seeds 1,2,3`: distinct integers. */
function parseSeeds(raw: unknown): number[] | undefined {
  if (raw === undefined) return undefined;
  const parts = String(raw).split(',').map((s) => s.trim());
  const seeds = parts.map(Number);
  if (parts.some((p) => !/^-?\d+$/.test(p)) || new Set(seeds).size !== seeds.length)
    throw new UsageError([{ where: '--seeds', expected: 'distinct comma-separated integers (e.g. 1,2,3)', found: describeFound(raw) }]);
  return seeds;
}

/** `--metrics a,b`: result fields, checked by name. */
function parseMetrics(raw: unknown): string[] {
  if (raw === undefined) return [...DEFAULT_SWEEP_METRICS];
  const names = String(raw).split(',').map((s) => s.trim());
  const issues: UsageIssue[] = [];
  for (const n of names) {
    const p = metricNameProblem(n);
    if (p !== undefined) issues.push({ where: '--metrics', expected: p, found: describeFound(n) });
  }
  if (issues.length > 0) throw new UsageError(issues);
  return names;
}
