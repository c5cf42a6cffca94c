import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type MemoryEstimate, type SimulationConfigInput, SimulationConfigSchema, prepareSimulation } from '@blis/cluster';
import { WorkloadSpecError, loadWorkloadSpec, parseWorkloadSpec } from '@blis/workload';
import { describeFound, describeZodExpected, formatParamPath, valueAtPath, valueExcerpt } from '@blis/policies/internal';
import { isConfigRefusal } from '../config-refusal.js';
import { applyParameter, dottedPath, editsWorkloadSpec } from './apply-parameter.js';
import { type Candidate, expandCandidates } from './candidates.js';
import { inlineWorkloadSpec } from './inline-workload-spec.js';
import { DEFAULT_SWEEP_METRICS, metricNameProblem } from './sweep-metrics.js';
import { SweepSpecError, type SweepIssue } from './sweep-spec-error.js';
import { type LargestRun, type WorkerMemory, workerMemoryIssue } from './worker-memory.js';
import type { LoadedSweepSpec } from './sweep-spec-load.js';
import type { SweepSpec } from './sweep-spec-schema.js';
import type { SweepTask } from './sweep-task.js';

type Json = Record<string, unknown>;

/** Everything a sweep will run, validated: one task per candidate and seed, in (candidate, seed) order. */
export interface SweepPlan {
  spec: SweepSpec;
  parameters: string[];
  metrics: string[];
  seeds: number[];
  candidates: Candidate[];
  tasks: SweepTask[];
  /** sha256 of the tasks and of the files they read: a results journal belongs to one plan. */
  hash: string;
}

/** Expands and validates a loaded sweep spec; throws SweepSpecError naming every problem. */
export function planSweep(loaded: LoadedSweepSpec, memory?: WorkerMemory): SweepPlan {
  const { spec, where } = loaded;
  const issues: SweepIssue[] = [];
  const metrics = [...(spec.metrics ?? DEFAULT_SWEEP_METRICS)];
  metrics.forEach((m, i) => {
    const p = metricNameProblem(m);
    if (p !== undefined) issues.push({ where: where(['metrics', i]), expected: p, found: valueExcerpt(m) });
  });
  const base = structuredClone(spec.base) as Json;
  const b = SimulationConfigSchema.safeParse(base);
  if (!b.success)
    for (const i of b.error.issues) {
      const path = i.path as (string | number)[];
      if (i.code === 'unrecognized_keys') issues.push({ where: where(['base', ...path, i.keys[0]]), expected: `a known field of ${formatParamPath(['base', ...path], '')} (see SimulationConfigSchema)`, found: unknownFields(i.keys) });
      else issues.push({ where: where(['base', ...path]), expected: describeZodExpected(i, valueAtPath(base, path)), found: loaded.numberText?.(['base', ...path]) ?? describeFound(valueAtPath(base, path)) });
    }
  if (base.seed !== undefined) issues.push({ where: where(['base', 'seed']), expected: 'no base.seed (list the seeds under `seeds:`)', found: valueExcerpt(base.seed) });
  if ((base.trace as Json | undefined)?.outputPath !== undefined)
    issues.push({ where: where(['base', 'trace', 'outputPath']), expected: 'no trace output file in a sweep (every run would overwrite it)', found: valueExcerpt((base.trace as Json).outputPath) });
  if (metrics.includes('fitness.score') && base.fitnessWeights === undefined)
    issues.push({ where: where(['metrics']), expected: 'base.fitnessWeights for the fitness.score metric', found: 'none' });
  if (issues.length > 0) throw new SweepSpecError(issues);

  const names = Object.keys(spec.parameters);
  const files: string[] = [];
  const w = base.workload as Json | undefined;
  if (names.some(editsWorkloadSpec) && w?.kind === 'spec' && typeof w.path === 'string') {
    loadWorkloadSpec(w.path); // the file's own errors, with its lines
    files.push(w.path);
    base.workload = inlineWorkloadSpec(w);
  } else if (w !== undefined && (w.kind === 'spec' || w.kind === 'trace')) {
    for (const f of [w.path, w.dataPath]) if (typeof f === 'string') files.push(f);
  }

  const candidates = expandCandidates(spec, loaded);
  const describe = (c: Candidate) => `candidate ${c.index} (${names.map((n) => `${n}=${valueExcerpt(c.values[n])}`).join(', ')})`;
  const tasks = buildTasks(base, candidates, spec.seeds, metrics, {
    parameterWhere: (n) => where(['parameters', n]),
    baseWhere: (p) => where(['base', ...p]),
    describe,
  }, undefined, false, memory);
  return { spec, parameters: names, metrics, seeds: [...spec.seeds], candidates, tasks, hash: planHash(tasks, files) };
}

/** How a plan names the places its issues come from. */
export interface PlanNaming {
  parameterWhere(name: string): string;
  baseWhere(path: readonly (string | number)[]): string;
  describe(c: Candidate): string;
}

/**
 * One task per candidate and seed. Each candidate's config is validated with
 * `SimulationConfigSchema` (and its inlined workload spec with the spec schema) before any runs;
 * an issue under a parameter's path names the parameter and the candidate.
 */
export function buildTasks(
  base: Record<string, unknown>,
  candidates: readonly Candidate[],
  seeds: readonly number[],
  metrics: readonly string[],
  naming: PlanNaming,
  extra?: (c: Candidate) => Partial<SweepTask>,
  keepWorkloadSeed = false,
  memory?: WorkerMemory,
): SweepTask[] {
  const seeded = (config: Json, seed: number) => withSeed(config, seed, keepWorkloadSeed);
  const issues: SweepIssue[] = [];
  const tasks: SweepTask[] = [];
  let largest: LargestRun | undefined;
  for (const c of candidates) {
    const config = structuredClone(base);
    const names = Object.keys(c.values);
    for (const n of names) {
      const problem = applyParameter(config, n, c.values[n]);
      if (problem !== undefined) issues.push({ where: `${naming.parameterWhere(n)}, ${naming.describe(c)}`, expected: problem, found: valueExcerpt(c.values[n]) });
    }
    if (issues.length > 0) continue;
    const parsed = SimulationConfigSchema.safeParse(seeded(config, seeds[0]));
    if (!parsed.success) {
      for (const i of parsed.error.issues) {
        const unknownKey = i.code === 'unrecognized_keys';
        const path = [...i.path.filter((p): p is string | number => typeof p !== 'symbol'), ...(unknownKey ? [i.keys[0]] : [])];
        // Parameter names are matched in their dotted form (`clients.0.x`), however the user wrote them.
        const dotted = path.join('.');
        const param = names.find((written) => {
          const n = dottedPath(written);
          return dotted === n || dotted.startsWith(`${n}.`) || n.startsWith(`${dotted}.`);
        }) ?? names.find((n) => n.startsWith('routing.scorers.') && dotted.startsWith('routing.scorers'));
        const at = param !== undefined ? `${naming.parameterWhere(param)}, ${naming.describe(c)}` : `${naming.baseWhere(path)}, ${naming.describe(c)}`;
        if (unknownKey) issues.push({ where: at, expected: `a known field of ${formatParamPath(path.slice(0, -1), '') || 'the config'} (see SimulationConfigSchema)`, found: unknownFields(i.keys) });
        else issues.push({ where: at, expected: describeZodExpected(i, valueAtPath(config, i.path)), found: describeFound(valueAtPath(config, i.path)) });
      }
      continue;
    }
    const routing = parsed.data.routing;
    if (routing.scorers !== undefined && routing.policy !== 'weighted' && names.some((n) => n.startsWith('routing.scorers.')))
      issues.push({ where: `${naming.describe(c)}`, expected: 'routing.policy weighted for routing.scorers.<name> parameters (other policies ignore scorers)', found: valueExcerpt(routing.policy) });
    const wl = (config.workload as Json | undefined) ?? {};
    if (wl.kind === 'spec' && wl.spec !== undefined) {
      try {
        parseWorkloadSpec(wl.spec, 'workload.spec');
      } catch (e) {
        if (!(e instanceof WorkloadSpecError)) throw e;
        for (const i of e.issues) {
          // A problem in a field a parameter set names that parameter (and so the sweep file and line).
          const field = dottedPath(i.field !== undefined ? `workload.spec.${i.field}` : 'workload.spec');
          const param = names.find((n) => {
            const d = dottedPath(n).replace(/^workload\.(?!spec\.)/, 'workload.spec.');
            return editsWorkloadSpec(n) && (field === d || field.startsWith(`${d}.`));
          });
          const at = param !== undefined ? naming.parameterWhere(param) : i.field !== undefined ? `workload.spec.${i.field}` : 'workload.spec';
          issues.push({ where: `${at}, ${naming.describe(c)}`, expected: i.expected, found: i.found });
        }
      }
    }
    const checked = issues.length === 0 ? task0Problem(seeded(config, seeds[0]) as SimulationConfigInput, extra?.(c), memory) : {};
    if (checked.problem !== undefined) issues.push({ where: naming.describe(c), expected: 'a config the simulator accepts', found: checked.problem });
    if (checked.memory !== undefined && (largest === undefined || checked.memory.totalBytes > largest.estimate.totalBytes)) largest = { where: naming.describe(c), estimate: checked.memory };
    for (const seed of seeds) tasks.push({ candidate: c.index, seed, config: seeded(config, seed) as SimulationConfigInput, metrics, ...extra?.(c) });
  }
  const memoryIssue = issues.length === 0 ? workerMemoryIssue(largest, tasks.length, memory) : undefined;
  if (memoryIssue !== undefined) issues.push(memoryIssue);
  if (issues.length > 0) throw new SweepSpecError(issues);
  return tasks;
}

/**
 * The config with the run's seed; a spec workload gets it too (as an explicit `--seed` overrides
 * a spec's seed in BLIS), so every seed draws a different workload, unless `keepWorkloadSeed`
 * (`blis compare` without --seeds, matching `blis run`: the spec keeps its seed unless --seed).
 */
export function withSeed(config: Record<string, unknown>, seed: number, keepWorkloadSeed = false): Record<string, unknown> {
  const out = structuredClone(config);
  out.seed = seed;
  const w = out.workload as Json | undefined;
  if (w?.kind === 'spec' && !keepWorkloadSeed) w.seed = seed;
  return out;
}

/** Hash of the tasks and of the bytes of every file they read (a workload spec or trace). */
export function planHash(tasks: readonly SweepTask[], files: readonly string[]): string {
  const h = createHash('sha256');
  h.update(JSON.stringify(tasks));
  for (const f of files) {
    h.update(`\0${f}\0`);
    try {
      h.update(readFileSync(f));
    } catch {
      h.update('(unreadable)');
    }
  }
  return h.digest('hex');
}

/**
 * Builds the simulation of a task without running it, so that what only the simulator checks
 * (policy parameters, the model's coefficients, KV capacity) fails before the sweep starts, and
 * gives its memory estimate; with `memory`, a run larger than the machine is refused before it
 * is built. Custom policy modules are loaded by the runner; their built-in stand-in is not
 * checked here.
 */
function task0Problem(config: SimulationConfigInput, extra: Partial<SweepTask> | undefined, memory: WorkerMemory | undefined): { problem?: string; memory?: MemoryEstimate } {
  if (extra?.routingModule !== undefined) return {};
  try {
    return { memory: prepareSimulation(config, memory !== undefined ? { memoryLimit: memory.limit } : {}).memory };
  } catch (e) {
    if (isConfigRefusal(e)) return { problem: e.message.split('\n').join('; ') };
    throw e;
  }
}

/** `unknown field "x"`, `unknown fields "x", "y"`: each key as an excerpt (a key can be a megabyte). */
function unknownFields(keys: readonly string[]): string {
  return `unknown field${keys.length === 1 ? '' : 's'} ${keys.map((k) => describeFound(k)).join(', ')}`;
}
