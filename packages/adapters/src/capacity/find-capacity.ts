import { type SimulationConfigInput, type SimulationResult, SimulationConfigSchema, simulate } from '@blis/cluster';
import { type SearchOutcome, largestPassing, smallestPassingInteger } from './bracket-search.js';
import { checkLargestProbe } from './largest-probe.js';
import { CapacityInputError, type CapacityIssue } from './capacity-input-error.js';
import { type CapacityHooks, type CapacityOptions, type CapacitySettings, parseCapacitySettings } from './capacity-options.js';
import { type CapacityProbe, type CapacityReport, type CapacityRun, confidenceOf, formatValue } from './capacity-report.js';
import { type CapacityTarget, type TargetCheck, checkTarget, targetLabel } from './capacity-target.js';
import { type RateAxis, type WorkloadInput, rateAxis } from './rate-axis.js';

/** How far the default rate bounds reach from the configured rate, each way (10 doublings). */
const DEFAULT_RATE_SPAN = 1024;

/**
 * Finds the largest arrival rate (`search: 'rate'`) or the fewest instances (`'instances'`) at
 * which every target is met, by bracketing from the configured value and bisecting.
 *
 * A probe passes only when every seed passes. Each seed's predicate is monotone in load (more
 * rate or fewer instances never helps a latency percentile in a stable system), and the
 * conjunction of monotone predicates is monotone too, so bisection stays sound; a majority
 * vote is not monotone in general. It is also the conservative reading a capacity plan needs:
 * the answer is a load every sampled arrival sequence sustained. Probes where seeds disagree
 * are reported in `confidence`.
 *
 * Deterministic: the same options give the same report (simulations are seeded, probes run in
 * order, and nothing reads the clock).
 */
export async function findCapacity(options: CapacityOptions, hooks: CapacityHooks = {}): Promise<CapacityReport> {
  const { config: input, ...rawSettings } = options;
  const settings = parseCapacitySettings(rawSettings);
  const base = SimulationConfigSchema.parse(input);
  const axis = rateAxis(base.workload);
  checkClasses(settings.targets, axis);
  if (settings.search === 'instances' && base.pd !== undefined)
    throw new CapacityInputError([
      { where: 'config.pd', expected: 'no P/D disaggregation with an instances search (its pools are sized one by one, not by numInstances)', found: 'a pd section' },
    ]);
  const seeds = settings.seeds ?? [base.seed];
  const run = hooks.simulate ?? ((c: SimulationConfigInput, rt: Parameters<typeof simulate>[1]) => simulate(c, rt));

  const unit = settings.search === 'rate' ? axis.unit : 'instances';
  const probes: CapacityProbe[] = [];
  const memo = new Map<number, boolean>();
  const configAt = (value: number, seed: number): SimulationConfigInput => {
    const rate = settings.search === 'rate' ? value : axis.base;
    const numInstances = settings.search === 'instances' ? value : base.numInstances;
    let workload: WorkloadInput = axis.at(rate);
    // A spec's own seed would fix its arrivals whatever the run's seed: each seed replaces it.
    if (workload.kind === 'spec') workload = { ...workload, seed };
    return { ...input, seed, numInstances, workload };
  };
  const probe = async (value: number): Promise<boolean> => {
    const known = memo.get(value);
    if (known !== undefined) return known;
    const runs: CapacityRun[] = [];
    for (const seed of seeds) {
      hooks.onRun?.(value, seed);
      const config = configAt(value, seed);
      const runtime = hooks.runtime === undefined ? undefined : await hooks.runtime(config);
      runs.push(judge(await run(config, runtime), seed, settings, axis));
    }
    const passedSeeds = runs.filter((r) => r.passed).length;
    const p: CapacityProbe = { index: probes.length + 1, value, passed: passedSeeds === runs.length, seeds_passed: passedSeeds, runs };
    probes.push(p);
    memo.set(value, p.passed);
    hooks.onProbe?.(p, unit);
    return p.passed;
  };

  let outcome: SearchOutcome;
  let bounds: { min: number; max: number };
  if (settings.search === 'rate') {
    bounds = { min: settings.minRate ?? axis.base / DEFAULT_RATE_SPAN, max: settings.maxRate ?? axis.base * DEFAULT_RATE_SPAN };
    if (bounds.min > bounds.max) throw new CapacityInputError([{ where: 'options.minRate', expected: `at most the maximum rate (${formatValue(bounds.max)})`, found: formatValue(bounds.min) }]);
    outcome = await largestPassing(axis.base, bounds.min, bounds.max, settings.tolerance, probe);
  } else {
    bounds = { min: settings.minInstances, max: settings.maxInstances };
    // Only the simulator's own runs allocate what the estimate counts (tests inject `simulate`).
    if (hooks.simulate === undefined) {
      const at = (n: number) => configAt(n, seeds[0]);
      checkLargestProbe(bounds.max, at, hooks.runtime === undefined ? undefined : await hooks.runtime(at(bounds.max)), base.numInstances);
    }
    outcome = await smallestPassingInteger(base.numInstances, bounds.min, bounds.max, probe);
  }
  return {
    search: settings.search,
    status: outcome.status,
    answer: outcome.answer,
    unit,
    message: describeOutcome(outcome, unit),
    bracket: { passing: outcome.passing, failing: outcome.failing },
    tolerance: settings.search === 'rate' ? settings.tolerance : null,
    varies: settings.search === 'rate' ? axis.scales : 'numInstances',
    fixed: settings.search === 'rate' ? { num_instances: base.numInstances } : { rate: axis.base, unit: axis.unit },
    bounds,
    targets: settings.targets.map((t) => ({ target: targetLabel(t), metric: t.metric, stat: t.stat, slo_class: t.sloClass ?? null, limit_ms: t.limitMs })),
    min_completion: settings.minCompletion,
    seeds,
    probes,
    confidence: confidenceOf(probes, seeds.length, unit),
  };
}

/** A target on a class the workload never produces could not be met or missed: an input error. */
function checkClasses(targets: readonly CapacityTarget[], axis: RateAxis): void {
  if (axis.classes === undefined) return;
  const known = axis.classes;
  const issues: CapacityIssue[] = targets
    .filter((t) => t.sloClass !== undefined && !known.includes(t.sloClass))
    .map((t) => ({ where: `target ${targetLabel(t)}`, expected: `an SLO class of the workload (${known.join(', ')})`, found: JSON.stringify(t.sloClass) }));
  if (issues.length > 0) throw new CapacityInputError(issues);
}

function judge(result: SimulationResult, seed: number, settings: CapacitySettings, axis: RateAxis): CapacityRun {
  const checks: TargetCheck[] = [];
  for (const t of settings.targets) {
    const c = checkTarget(t, result);
    if (c === undefined) {
      // Only a trace's classes are unknown before a run; they do not change with its rate.
      const found = Object.keys(result.per_slo_class).sort();
      throw new CapacityInputError([
        { where: `target ${targetLabel(t)}`, expected: `an SLO class of the ${axis.classes === undefined ? 'trace' : 'workload'} (${found.join(', ') || 'none'})`, found: JSON.stringify(t.sloClass) },
      ]);
    }
    checks.push(c);
  }
  const injected = result.injected_requests;
  const completion = injected > 0 ? result.completed_requests / injected : 0;
  const completionMet = injected > 0 && completion >= settings.minCompletion;
  return {
    seed,
    passed: completionMet && checks.every((c) => c.met),
    injected_requests: injected,
    completed_requests: result.completed_requests,
    completion,
    completion_met: completionMet,
    checks,
  };
}

function describeOutcome(o: SearchOutcome, unit: string): string {
  const v = (x: number | null) => (x === null ? '?' : `${formatValue(x)} ${unit}`);
  switch (o.status) {
    case 'found':
      return unit === 'instances'
        ? `${v(o.answer)} meet every target; ${v(o.failing)} do not`
        : `${v(o.answer)} meets every target; ${v(o.failing)} does not`;
    case 'upper-bound-passes':
      return `every target is met even at the maximum rate, ${v(o.answer)}: the capacity is at least that (raise the maximum rate to look further)`;
    case 'lower-bound-fails':
      return `not even the minimum rate, ${v(o.failing)}, meets every target: no rate in the bounds does`;
    case 'lower-bound-passes':
      return `the fewest instances allowed, ${v(o.answer)}, already meet every target`;
    case 'upper-bound-fails':
      return `not even the most instances allowed, ${v(o.failing)}, meet every target (raise the maximum instances to look further)`;
  }
}
