import { InvariantViolation } from '@blis/engine';
import type { DecisionObserver } from '@blis/trace';
import { type SimulationConfigInput, SimulationConfigSchema } from '../config-schema.js';
import type { SimulationResult } from '../results.js';
import { prepareSimulation, runPrepared } from '../simulate.js';
import type { SimulationRuntime } from '../simulation-runtime.js';
import { checkInvariants } from './check-invariants.js';
import { InvariantRecorder, type InvariantRecorderOptions } from './invariant-recorder.js';
import type { RunFacts, RunLog } from './run-log.js';
import type { InvariantReport } from './violation.js';

/** Options of {@link simulateChecked}. */
export interface SimulateCheckedOptions extends InvariantRecorderOptions {
  /** Run twice more without the recorder and compare the result JSON byte for byte (INV-6). Default false. */
  determinism?: boolean;
}

/** A checked run: its result (absent when the engine stopped it on a violation), log and report. */
export interface CheckedRun extends InvariantReport {
  result?: SimulationResult;
  log: RunLog;
}

/**
 * Runs `config` with an {@link InvariantRecorder} on it (its policies wrapped, its events
 * logged, the engine's own monitor's violations caught) and checks every invariant that applies:
 * INV-1..9, and the P/D, KV tier and autoscaler invariants when the config has them. A runtime's
 * own observer, policies and registry are kept (custom policies are checked the same way).
 * Every policy runs in check mode (`checkPolicies`: read-only views, answers within the
 * contract) unless the runtime sets `checkPolicies: false`.
 */
export function simulateChecked(config: SimulationConfigInput, runtime: SimulationRuntime = {}, options: SimulateCheckedOptions = {}): CheckedRun {
  const parsed = SimulationConfigSchema.parse(config);
  const facts: RunFacts = { snapshotRefreshIntervalUs: parsed.snapshotRefreshIntervalUs };
  if (parsed.horizonUs !== undefined) facts.cutOff = true;
  if (parsed.autoscaling !== undefined) facts.replicaBounds = { min: parsed.autoscaling.minReplicas, max: parsed.autoscaling.maxReplicas ?? Number.POSITIVE_INFINITY };
  const recorder = new InvariantRecorder(facts, options);
  const prepared = prepareSimulation(config, {
    ...runtime,
    checkPolicies: runtime.checkPolicies ?? true,
    registry: recorder.wrapRegistry(runtime.registry),
    ...(runtime.routing !== undefined ? { routing: recorder.wrapRouting(runtime.routing) } : {}),
    ...(runtime.admission !== undefined ? { admission: recorder.wrapAdmission(runtime.admission) } : {}),
    observer: runtime.observer !== undefined ? both(recorder, runtime.observer) : recorder,
  });
  const snapshots = prepared.cluster.snapshots;
  recorder.setInFlightTruth((i) => snapshots[i]?.inFlightRequests);
  let result: SimulationResult | undefined;
  const engine: InvariantReport['violations'] = [];
  try {
    result = runPrepared(prepared);
    prepared.cluster.checkConservation();
  } catch (e) {
    if (!(e instanceof InvariantViolation)) throw e;
    engine.push({ invariant: e.invariant, message: e.message });
  }
  if (result === undefined) return { ok: false, violations: engine, checked: ['engine'], log: recorder.log };
  const report = checkInvariants({ result, log: recorder.log }, { config });
  const violations = [...engine, ...report.violations];
  if (options.determinism === true) {
    const again = JSON.stringify(simulateUnchecked(config, runtime));
    if (again !== JSON.stringify(result)) violations.push({ invariant: 'INV-6', message: 'the same config gave a different result JSON without the recorder' });
    if (JSON.stringify(simulateUnchecked(config, runtime)) !== again) violations.push({ invariant: 'INV-6', message: 'two runs of the same config gave different result JSON' });
  }
  return { ok: violations.length === 0, violations, checked: [...report.checked, 'engine', ...(options.determinism ? ['INV-6'] : [])].sort(), result, log: recorder.log };
}

function simulateUnchecked(config: SimulationConfigInput, runtime: SimulationRuntime): SimulationResult {
  const { observer: _o, ...rest } = runtime;
  return runPrepared(prepareSimulation(config, rest));
}

/** An observer that reports every event to `a`, then `b`. */
function both(a: InvariantRecorder, b: DecisionObserver): DecisionObserver {
  const out: Record<string, unknown> = {};
  const keys = new Set([...Object.getOwnPropertyNames(Object.getPrototypeOf(a)), ...Object.keys(b), ...protoKeys(b)]);
  for (const k of keys) {
    if (!k.startsWith('on')) continue;
    const fa = (a as unknown as Record<string, unknown>)[k];
    const fb = (b as unknown as Record<string, unknown>)[k];
    out[k] = (...args: unknown[]) => {
      if (typeof fa === 'function') fa.apply(a, args);
      if (typeof fb === 'function') fb.apply(b, args);
    };
  }
  return out as DecisionObserver;
}

function protoKeys(o: object): string[] {
  const p = Object.getPrototypeOf(o);
  return p === null || p === Object.prototype ? [] : Object.getOwnPropertyNames(p);
}
