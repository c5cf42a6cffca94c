import { RUN_LIMITS, RunLimitError, type SimulationConfigInput, type SimulationRuntime, estimateSimulation } from '@blis/cluster';
import { CapacityInputError } from './capacity-input-error.js';

/**
 * An instances search may bracket up to its maximum: refuse, before the first probe, a maximum
 * no run may have (the instance limit) or that would not fit (the memory estimate, the KV blocks
 * over all instances). Without this a maximum of 10^8 was found out after thirteen probes, the
 * last ones each allocating gigabytes, and the refusal blamed the instance count of the run.
 *
 * `configAt` builds the probe of a given instance count; the base config is estimated first so a
 * refusal it earns on its own is reported as a probe would, not blamed on the maximum.
 */
export function checkLargestProbe(max: number, configAt: (instances: number) => SimulationConfigInput, runtime: SimulationRuntime | undefined, baseInstances: number): void {
  if (max > RUN_LIMITS.maxInstances)
    throw new CapacityInputError([{ where: 'options.maxInstances', expected: `at most ${RUN_LIMITS.maxInstances} instances (the most a run may have)`, found: String(max) }]);
  estimateSimulation(configAt(baseInstances), runtime);
  try {
    estimateSimulation(configAt(max), runtime);
  } catch (e) {
    if (!(e instanceof RunLimitError)) throw e;
    throw new CapacityInputError(
      // Every limit the largest run passes and the base run does not is the maximum's doing.
      e.issues.map((i) => ({ where: `options.maxInstances ${max}`, expected: i.expected, found: i.found })),
    );
  }
}
