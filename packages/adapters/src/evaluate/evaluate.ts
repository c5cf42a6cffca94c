import { type SimulationConfigInput, SimulationConfigSchema, createTraceRecorder, prepareSimulation } from '@blis/cluster';
import { prepareValidated, runPreparedSummary } from '@blis/cluster/internal';
import { PolicyError } from '@blis/policies';
import { isConfigRefusal } from '../config-refusal.js';
import { BudgetSpent, CandidateCallWatch, WallBudgetExceeded, runBounded } from './bounded-run.js';
import { EvalRequestError, InvalidCandidateError, zodIssues } from './candidate-error.js';
import { type CompiledCandidate, candidateFile } from './candidate-build.js';
import { type ResolvedCandidate, type TreeLoader, resolveCandidate, runtimeFor } from './candidate.js';
import { compileCandidate } from './candidate-compile.js';
import { scenarioFeedback } from './feedback.js';
import { OBJECTIVES, OBJECTIVE_NAMES, scoreObjectives } from './objectives.js';
import { EVAL_PROTOCOL, type EvalFailure, type EvalIssue, EvalRequestSchema, type EvalResponse, type EvalStatus, type ParsedEvalRequest, type Scenario, type ScenarioResult } from './protocol.js';
import { type RunMetrics, meanOf, runMetrics } from './scenario-metrics.js';
import { evaluatedWorkloads } from './workload-cache.js';

export interface EvaluateOptions {
  /** Reads decision-tree components (wired by the package's `evaluate`). */
  loadTree?: TreeLoader;
  /** Wall clock in ms, for the request's budget only (never reaches a result). */
  now?: () => number;
  /**
   * Refuse, before it is built, a run whose memory estimate exceeds this (the CLI passes the
   * machine's): the request's fault when its base config alone does, else the candidate's.
   */
  memoryLimit?: { bytes: number; what: string; heap?: { bytes: number; what: string } };
}

/** What only this repository's own hosts of the evaluation pass (not public: see `compiled`). */
export interface HostEvaluateOptions extends EvaluateOptions {
  /**
   * The module candidate's script, compiled ahead by the host (the `blis` binary's launcher
   * compiles a one-shot request's candidate while the sandbox's thread loads). Run as it is, in
   * place of a compile, when its language and text are the candidate's; it comes from the host's
   * own code (the sandbox's call), never from a request.
   */
  compiled?: CompiledCandidate;
}

/**
 * Answers one `blis-eval/1` request. A malformed request throws {@link EvalRequestError} (the
 * caller's mistake, not the candidate's); everything about the candidate, including code that
 * throws mid-run, is an answer with a status. Same request, same response, byte for byte.
 */
export async function evaluateRequest(raw: unknown, options: HostEvaluateOptions = {}): Promise<EvalResponse> {
  const now = options.now ?? Date.now;
  const deadline = now() + ((raw as { max_wall_ms?: number } | null)?.max_wall_ms ?? 240_000);
  const request = parseRequest(raw);
  const bases = request.scenarios.map((s, i) => scenarioBase(request, s, i));

  // A module is compiled first (asynchronously, cached); then everything that runs its code (its
  // top level, its factory, the scenarios) runs inside one `vm` timeout of what is left of the
  // budget, which stops it wherever it is stuck.
  let compiled: string | undefined;
  const c = request.candidate;
  if (c.kind === 'policy-module') {
    try {
      const ahead = options.compiled;
      compiled = ahead !== undefined && ahead.language === c.language && ahead.text === c.text ? ahead.script : await compileCandidate(c.text, c.language, candidateFile(c.language));
    } catch (e) {
      if (e instanceof InvalidCandidateError) return failed(request, 'invalid_candidate', { kind: 'invalid_candidate', message: e.message, issues: e.issues });
      throw e;
    }
  }
  const watch = new CandidateCallWatch();
  let phase = "the candidate's top-level code or factory";
  const results: ScenarioResult[] = [];
  const metricRows: Record<string, number>[] = [];
  const featureRows: Record<string, number>[] = [];
  let current = 0;
  let loaded = false;
  let objects = 0;
  try {
    const left = deadline - now();
    if (left <= 0) throw new BudgetSpent();
    // Only module code can be stuck where the budget checks between steps never run (policy
    // texts and trees run as our code); the `vm` timeout costs about a millisecond a request.
    const bound = c.kind === 'policy-module' ? runBounded : <T>(_ms: number, fn: () => T): T => fn();
    bound(left, () => {
      const candidate: ResolvedCandidate = resolveCandidate(c, options.loadTree, compiled);
      loaded = true;
      objects = candidate.objects.length;
      request.scenarios.forEach((scenario, i) => {
        current = i;
        phase = `scenario "${scenario.id}"`;
        const r = runScenario(request, scenario, bases[i], candidate, options.memoryLimit, watch, () => {
          if (now() > deadline) throw new BudgetSpent();
        });
        results.push(r);
        metricRows.push(r.metrics);
        featureRows.push(r.features);
      });
    });
  } catch (e) {
    if (e instanceof BudgetSpent || e instanceof WallBudgetExceeded) return timedOut(request, results.length, e, watch, phase);
    if (e instanceof InvalidCandidateError) return failed(request, 'invalid_candidate', { kind: 'invalid_candidate', message: e.message, issues: e.issues });
    if (!loaded) throw e;
    if (e instanceof PolicyError) return failed(request, 'invalid_candidate', { kind: 'invalid_candidate', message: e.message, issues: [policyIssue(e)] });
    const message = (e as Error)?.message ?? String(e);
    // The simulator's checks of a policy's decisions (an instance out of range, a pod of the
    // wrong pool) catch the candidate's code, not a fault of the simulator.
    const contract = (e as { name?: string; invariant?: string } | null)?.name === 'InvariantViolation' && ['routing', 'INV-PD-2'].includes((e as { invariant: string }).invariant);
    if (contract && objects > 0)
      return failed(request, 'invalid_candidate', { kind: 'invalid_candidate', message, issues: [{ where: 'candidate decision', expected: 'decisions within the policy contract', found: message }] });
    if (isConfigRefusal(e)) {
      // The configuration was refused: the request's fault when the base alone is refused too.
      if (baseRefused(bases[current], request.scenarios[current], options.memoryLimit))
        throw new EvalRequestError([{ where: `request.scenarios[${current}] (base_config + scenario)`, expected: 'a configuration the simulator accepts', found: message }]);
      return failed(request, 'invalid_candidate', { kind: 'invalid_candidate', message, issues: [{ where: 'candidate (applied to the config)', expected: 'a configuration the simulator accepts', found: message }] });
    }
    return failed(request, 'sim_error', { kind: 'sim_error', message, issues: [] });
  }

  const weights = request.scenarios.map((s) => s.weight);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const combined = results.reduce((acc, r, i) => acc + r.score * weights[i], 0) / totalWeight;
  return {
    protocol: EVAL_PROTOCOL,
    status: 'ok',
    error: null,
    combined_score: combined,
    metrics: weightedMean(metricRows, weights),
    features: weightedMean(featureRows, weights),
    per_scenario: results,
    artifacts: {
      summary: results.map((r) => `${r.id}: score ${r.score.toPrecision(4)}; ${r.feedback.split('\n')[1] ?? ''}`).join('\n'),
      seeds: JSON.stringify(Object.fromEntries(request.scenarios.map((s) => [s.id, s.seeds]))),
    },
  };
}

function parseRequest(raw: unknown): ParsedEvalRequest {
  const parsed = EvalRequestSchema.safeParse(raw);
  if (!parsed.success) throw new EvalRequestError(zodIssues('request', parsed.error.issues, raw));
  const r = parsed.data;
  const issues: EvalIssue[] = [];
  const names = Object.keys(r.objectives.weights);
  for (const n of names) if (OBJECTIVES[n] === undefined) issues.push({ where: `request.objectives.weights.${n}`, expected: `a known objective (${OBJECTIVE_NAMES.join(', ')})`, found: JSON.stringify(n) });
  if (names.length > 0 && Object.values(r.objectives.weights).every((w) => w === 0))
    issues.push({ where: 'request.objectives.weights', expected: 'at least one weight above 0', found: 'all 0' });
  if (names.length === 0) issues.push({ where: 'request.objectives.weights', expected: 'at least one objective', found: 'none' });
  const ids = new Set<string>();
  r.scenarios.forEach((s, i) => {
    if (ids.has(s.id)) issues.push({ where: `request.scenarios[${i}].id`, expected: 'an id no other scenario has', found: JSON.stringify(s.id) });
    ids.add(s.id);
  });
  if (issues.length > 0) throw new EvalRequestError(issues);
  return r;
}

/** The scenario's configuration before the candidate: base, then the scenario's own fields. */
function scenarioBase(request: ParsedEvalRequest, s: Scenario, i: number): SimulationConfigInput {
  const input = {
    ...request.base_config,
    ...(s.config ?? {}),
    workload: s.workload,
    ...(s.horizon_us !== undefined ? { horizonUs: s.horizon_us } : {}),
    ...(s.slo?.ttft_us !== undefined ? { sloTtftUs: s.slo.ttft_us } : {}),
    ...(s.slo?.e2e_us !== undefined ? { sloE2eUs: s.slo.e2e_us } : {}),
    // Tracing is the protocol's (`trace`), results stay summaries.
    trace: undefined,
    includeRequests: false,
    checkInvariants: false,
  } as SimulationConfigInput;
  const parsed = SimulationConfigSchema.safeParse(input);
  if (!parsed.success) throw new EvalRequestError(zodIssues(`request.scenarios[${i}] (base_config + scenario)`, parsed.error.issues, input));
  return input;
}

function runScenario(
  request: ParsedEvalRequest,
  s: Scenario,
  base: SimulationConfigInput,
  candidate: ResolvedCandidate,
  memoryLimit: EvaluateOptions['memoryLimit'],
  watch: CandidateCallWatch,
  tick: () => void,
): ScenarioResult {
  const runs: RunMetrics[] = [];
  let traceSummary: string | undefined;
  let report: Record<string, unknown> = {};
  for (const seed of s.seeds) {
    tick();
    const workload = s.workload.kind === 'spec' && s.workload.seed === undefined ? { ...s.workload, seed } : s.workload;
    const input = { ...base, ...candidate.patch, workload, seed } as SimulationConfigInput;
    const parsed = SimulationConfigSchema.safeParse(input);
    if (!parsed.success) throw new InvalidCandidateError(zodIssues('candidate (applied to the config)', parsed.error.issues, input));
    const config = parsed.data;
    const runtime = runtimeFor(candidate, { seed, numInstances: config.numInstances, blockSizeTokens: config.blockSizeTokens }, watch);
    const traced = request.trace !== 'none' && seed === s.seeds[0];
    const recorder = traced
      ? createTraceRecorder(config, { customRouting: candidate.objectNames.routing, customDecider: candidate.objectNames.decider, customAutoscaler: candidate.objectNames.autoscaler })
      : undefined;
    if (recorder !== undefined) runtime.observer = recorder;
    runtime.onProgress = tick;
    if (memoryLimit !== undefined) runtime.memoryLimit = memoryLimit;
    // `config` is what prepareSimulation would parse `input` to: validated once, not twice.
    const prepared = prepareValidated(config, runtime, { workloads: evaluatedWorkloads });
    // Only what runMetrics reads: the per-instance, per-class and per-tenant blocks are not built.
    const result = runPreparedSummary(prepared);
    let violations = 0;
    try {
      prepared.cluster.checkConservation();
    } catch {
      violations = 1;
    }
    if (recorder !== undefined) {
      const r = recorder.finish(prepared.endUs, { maxTokens: 1000 });
      traceSummary = r.trace_summary;
      report =
        request.trace === 'decisions'
          ? { anomalies: r.anomalies }
          : { anomalies: Object.fromEntries(Object.entries(r.anomalies).map(([k, v]) => [k, (v as { count: number }).count])) };
    }
    runs.push(runMetrics(result, config.numInstances, violations));
  }
  const metrics = meanOf(runs.map((r) => r.values));
  metrics.invariant_violations = runs.reduce((a, r) => a + r.values.invariant_violations, 0);
  const features = meanOf(runs.map((r) => r.features));
  const present = runs[0].present;
  const weights = request.objectives.weights;
  const scored = scoreObjectives(weights, metrics);
  const score = metrics.invariant_violations > 0 ? 0 : scored.score;
  return {
    id: s.id,
    score,
    objective_scores: scored.objectiveScores,
    metrics,
    features,
    feedback: scenarioFeedback({ id: s.id, seeds: s.seeds, metrics, present, features, slo: s.slo, objectiveScores: scored.objectiveScores, weights, score, traceSummary }),
    trace_summary: report,
  };
}

/** Whether the scenario's configuration without the candidate is refused as well. */
function baseRefused(base: SimulationConfigInput, s: Scenario, memoryLimit: EvaluateOptions['memoryLimit']): boolean {
  try {
    prepareSimulation({ ...base, seed: s.seeds[0] } as SimulationConfigInput, memoryLimit !== undefined ? { memoryLimit } : {});
    return false;
  } catch (e) {
    return isConfigRefusal(e);
  }
}

function weightedMean(rows: readonly Record<string, number>[], weights: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {};
  if (rows.length === 0) return out;
  const total = weights.reduce((a, b) => a + b, 0);
  for (const k of Object.keys(rows[0])) out[k] = rows.reduce((acc, r, i) => acc + (r[k] ?? 0) * weights[i], 0) / total;
  return out;
}

/**
 * The answer past the budget. Spent between steps of the work (`BudgetSpent`) it is the
 * simulation's time; stopped mid-call (`WallBudgetExceeded`), the candidate's code was stuck:
 * the issue names the call that had not returned, or the phase (its module, its factory).
 */
function timedOut(request: ParsedEvalRequest, done: number, e: BudgetSpent | WallBudgetExceeded, watch: CandidateCallWatch, phase: string): EvalResponse {
  let message = `the wall-clock budget of ${request.max_wall_ms} ms was spent after ${done} of ${request.scenarios.length} scenario(s)`;
  const issues: EvalIssue[] = [];
  if (e instanceof WallBudgetExceeded) {
    const running = watch.running?.error('had not returned when the budget ran out');
    if (running !== undefined) {
      message += `; stopped in ${running.message}`;
      issues.push({ where: `${running.source ?? 'candidate'} ${running.method}() for ${running.context}`, expected: 'a decision within the wall-clock budget', found: 'it had not returned when the budget ran out' });
    } else {
      message += `; stopped in ${phase}`;
      issues.push({ where: phase, expected: 'work that ends within the wall-clock budget', found: 'still running when the budget ran out' });
    }
  }
  return failed(request, 'timeout', { kind: 'timeout', message, issues });
}

/** The answer for a candidate that did not run to the end: a score of 0 everywhere, and why. */
/**
 * The answer for a candidate that took down the thread evaluating it (its heap, `process.exit`,
 * an exception thrown outside any decision): `invalid_candidate`, with what happened.
 */
export function candidateFailedResponse(raw: unknown, found: string): EvalResponse {
  const issue: EvalIssue = { where: 'candidate', expected: 'code that returns its decisions and leaves the evaluation running', found };
  return failed(parseRequest(raw), 'invalid_candidate', { kind: 'invalid_candidate', message: `candidate: ${found}`, issues: [issue] });
}

function failed(request: ParsedEvalRequest, status: EvalStatus, error: EvalFailure): EvalResponse {
  const zeros = Object.fromEntries(Object.keys(request.objectives.weights).sort().map((k) => [k, 0]));
  const text = `The candidate did not run (${status}): ${error.message}`;
  return {
    protocol: EVAL_PROTOCOL,
    status,
    error,
    combined_score: 0,
    metrics: {},
    features: {},
    per_scenario: request.scenarios.map((s) => ({ id: s.id, score: 0, objective_scores: { ...zeros }, metrics: {}, features: {}, feedback: text, trace_summary: {} })),
    artifacts: { summary: text, seeds: JSON.stringify(Object.fromEntries(request.scenarios.map((s) => [s.id, s.seeds]))) },
  };
}

/** A guarded policy's failure as an issue: where (module, method, decision), what went wrong. */
function policyIssue(e: PolicyError): EvalIssue {
  const where = `${e.source ?? 'candidate'} ${e.method}() for ${e.context}`;
  const expected = e.problem.startsWith('threw') ? 'a method that returns' : e.problem.startsWith('took') ? 'a decision within the time budget' : 'a decision within the policy contract';
  return { where, expected, found: e.problem };
}
