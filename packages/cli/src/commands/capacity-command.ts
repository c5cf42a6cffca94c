import { describeFound } from '@blis/policies/internal';
import { type CapacityProbe, CapacityInputError, findCapacity, parseTargets } from '@blis/adapters';
import { formatValue } from '@blis/adapters/internal';
import type { SimulationConfigInput } from '@blis/cluster';
import { buildConfig } from '../config/build-config.js';
import { customRuntime, preparePolicies } from '../policy-modules/index.js';
import { type FlagDef, parseFlags } from '../flags/flags.js';
import { policyCheckRuntime } from '../config/policy-check-flags.js';
import { stringifyResult } from '../output/json-output.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import { memoryLimit } from './machine-memory.js';
import { requireSpecFileSize } from '../inputs/spec-file-limit.js';

/**
 * `blis capacity`: validate the flags, build the base config as `blis run` does, search, print
 * the report JSON on stdout and one line per probe on stderr.
 */
export async function runCapacityCommand(
  defs: readonly FlagDef[],
  rawOpts: Record<string, unknown>,
  workloadFrom: (flags: Record<string, unknown>) => SimulationConfigInput['workload'],
): Promise<void> {
  const flags = parseFlags(defs, rawOpts);
  const issues: UsageIssue[] = [];
  const targetText = flags.target as string | undefined;
  const parsed = targetText === undefined ? undefined : parseTargets(targetText, '--target');
  if (targetText === undefined) issues.push({ where: '--target', expected: 'the latency limits to meet, e.g. "ttft_p99=500ms,e2e_p95=30s"', found: 'nothing' });
  else issues.push(...(parsed?.issues ?? []));
  const seeds = parseSeeds(flags, issues);
  if (issues.length > 0) throw new UsageError(issues);
  const setup = await preparePolicies(flags);
  const workload = workloadFrom(flags);
  if (workload?.kind === 'spec' && workload.path !== undefined) requireSpecFileSize('--workload-spec', workload.path);
  const input = buildConfig(flags, workload, setup);
  const memory = memoryLimit(flags.ignoreMemoryLimit === true);
  const quiet = flags.quiet === true;
  const search = (flags.search as 'rate' | 'instances' | undefined) ?? 'rate';
  const withModules = Object.keys(setup.sources).length > 0;
  const blockSizeTokens = (flags.blockSizeInTokens as number | undefined) ?? 16;
  try {
    const report = await findCapacity(
      {
        config: input,
        search,
        targets: parsed?.targets ?? [],
        seeds,
        tolerance: flags.tolerance as number | undefined,
        minRate: flags.minRate as number | undefined,
        maxRate: flags.maxRate as number | undefined,
        minInstances: flags.minInstances as number | undefined,
        maxInstances: flags.maxInstances as number | undefined,
        minCompletion: flags.minCompletion as number | undefined,
      },
      {
        // Custom policies may keep state: each run gets its own, built for its seed and size.
        runtime: (c) => ({
          ...(withModules ? customRuntime(setup, { seed: c.seed ?? 42, numInstances: c.numInstances ?? 1, blockSizeTokens }) : {}),
          ...policyCheckRuntime(flags),
          memoryLimit: memory,
        }),
        onProbe: quiet ? undefined : (p, unit) => process.stderr.write(`blis: probe ${p.index}: ${describeProbe(p, unit)}\n`),
      },
    );
    if (!quiet) process.stderr.write(`blis: ${report.message}; ${report.confidence.note}\n`);
    process.stdout.write(stringifyResult(report));
  } catch (e) {
    if (e instanceof CapacityInputError) throw new UsageError(e.issues.map((i) => ({ ...i, where: flagName(i.where) })));
    throw e;
  }
}

/** `options.maxRate` → `--max-rate` (`options.maxInstances 1024` → `--max-instances 1024`): the library names its options, the user typed flags. */
function flagName(where: string): string {
  const m = /^options\.(\w+)(.*)$/.exec(where);
  return m === null ? where : `--${m[1].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}${m[2]}`;
}

function parseSeeds(flags: Record<string, unknown>, issues: UsageIssue[]): number[] | undefined {
  const text = flags.seeds as string | undefined;
  if (text === undefined) return undefined;
  if (flags.seed !== undefined) {
    issues.push({ where: '--seeds', expected: 'either --seed or --seeds', found: 'both' });
    return undefined;
  }
  const parts = text.split(',').map((s) => s.trim());
  const bad = parts.filter((p) => !/^-?\d+$/.test(p) || !Number.isSafeInteger(Number(p)));
  if (bad.length > 0) {
    issues.push({ where: '--seeds', expected: 'comma-separated integers, e.g. "1,2,3"', found: describeFound(text) });
    return undefined;
  }
  const seeds = parts.map(Number);
  if (new Set(seeds).size !== seeds.length) issues.push({ where: '--seeds', expected: 'distinct seeds', found: describeFound(text) });
  return seeds;
}

function describeProbe(p: CapacityProbe, unit: string): string {
  const value = unit === 'instances' ? `${p.value} instance${p.value === 1 ? '' : 's'}` : `${formatValue(p.value)} ${unit}`;
  const seeds = p.runs.length;
  const verdict = p.passed ? 'pass' : 'fail';
  const worst = p.runs.flatMap((r) => r.checks.filter((c) => !c.met).map((c) => `${c.target} ${c.value_ms === null ? 'none completed' : `${formatValue(c.value_ms)} ms`} > ${formatValue(c.limit_ms)} ms`));
  const incomplete = p.runs.filter((r) => !r.completion_met).length;
  const why = [...new Set(worst)].slice(0, 2);
  if (incomplete > 0) why.push(`${incomplete} run${incomplete === 1 ? '' : 's'} below the completion minimum`);
  return `${value}: ${verdict} (${p.seeds_passed}/${seeds} seed${seeds === 1 ? '' : 's'} met the targets)${why.length > 0 ? `; ${why.join('; ')}` : ''}`;
}
