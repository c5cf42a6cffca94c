import type { SimulationConfigInput } from '../config-schema.js';
import type { SimulationResult } from '../results.js';
import { checkAutoscalingLog, checkAutoscalingResult } from './autoscale-checks.js';
import { checkDecisions } from './decision-checks.js';
import { checkLifecycle } from './lifecycle-checks.js';
import { checkPdBookkeeping, checkPdLog, checkPdResult } from './pd-checks.js';
import { checkKvTiers, checkResult } from './result-checks.js';
import type { RunLog } from './run-log.js';
import { InvariantCheckError, type InvariantReport, ViolationList } from './violation.js';

/** A result, with the event log a recorder kept of the same run (checks more). */
export interface RecordedRun {
  result: SimulationResult;
  log?: RunLog;
}

/** Options of {@link checkInvariants}: what the run was configured with, where the result alone cannot tell. */
export interface CheckOptions {
  /** The run's config: a horizon, autoscaling and KV tiers change what must hold. */
  config?: SimulationConfigInput;
}

const isResult = (x: SimulationResult | RecordedRun): x is SimulationResult => 'injected_requests' in x;

/**
 * Checks every invariant the inputs make checkable and returns what broke. From a result alone:
 * INV-1 (conservation, routing accounting), INV-5 on per-request records (with
 * `includeRequests`), the P/D result invariants (INV-PD-2/3/6), KV tier counters and autoscaler
 * bookkeeping. With a log (`{result, log}` from an {@link InvariantRecorder} or
 * `simulateChecked`): INV-2, INV-3, INV-5 over every event, INV-7, INV-9, the P/D ordering and
 * placement invariants (INV-PD-2/3/4/6) and the decider's bookkeeping, lifecycle edges, scale bounds and routable targets.
 * INV-4 and INV-8 are checked inside the engine when the config sets `checkInvariants`; INV-6
 * (determinism) by `simulateChecked({determinism: true})`.
 */
export function checkInvariants(run: SimulationResult | RecordedRun, options: CheckOptions = {}): InvariantReport {
  const { result, log } = isResult(run) ? { result: run, log: undefined } : run;
  const config = options.config;
  const out = new ViolationList();
  const checked = ['INV-1', 'INV-5'];
  const cutOff = config?.horizonUs !== undefined || log?.facts.cutOff === true;
  const autoscaled = result.autoscaling !== undefined || config?.autoscaling !== undefined;
  checkResult(result, { cutOff, autoscaled }, out);
  const tiers = config === undefined ? undefined : (config.kvCpuBlocks ?? 0) > 0 || config.kvOffload !== undefined;
  checkKvTiers(result, tiers, out);
  checked.push('KV-TIER');
  if (result.pd !== undefined) {
    checkPdResult(result, out, cutOff);
    checked.push('INV-PD');
  }
  if (autoscaled) {
    checkAutoscalingResult(result, config?.numInstances, out);
    checked.push('AUTOSCALE');
  }
  if (log !== undefined) {
    checkLifecycle(log, out);
    checkDecisions(log, out);
    checked.push('INV-2', 'INV-3', 'INV-7', 'INV-9');
    if (result.pd !== undefined) {
      checkPdLog(log, log.facts.pools ?? result.instances.map((b) => b.pool ?? 'unassigned'), out);
      if (!autoscaled) checkPdBookkeeping(result, log, out);
    }
    checkAutoscalingLog(log, out);
  }
  return { ok: out.items.length === 0, violations: out.items, checked: [...new Set(checked)].sort() };
}

/**
 * {@link checkInvariants}, throwing an {@link InvariantCheckError} that names each violation. Also
 * takes a report already made, such as {@link simulateChecked}'s run.
 */
export function assertInvariants(run: SimulationResult | RecordedRun | InvariantReport, options: CheckOptions = {}): void {
  // A report already made (simulateChecked's run) is asserted as it is: it also holds what the
  // engine's own monitor caught, which a result alone cannot show.
  const report = isReport(run) ? run : checkInvariants(run, options);
  if (!report.ok) throw new InvariantCheckError(report.violations);
}

function isReport(run: SimulationResult | RecordedRun | InvariantReport): run is InvariantReport {
  return typeof (run as InvariantReport).ok === 'boolean' && Array.isArray((run as InvariantReport).violations);
}
