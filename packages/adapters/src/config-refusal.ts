/**
 * Names of the errors the simulator raises for input it refuses (a model it does not know, policy
 * parameters, KV sizes, a workload file): the input's problem, never a fault of the simulator.
 * Matched by name because they come from several packages.
 */
export const CONFIG_REFUSALS: ReadonlySet<string> = new Set([
  'ZodError',
  'LatencyConfigError',
  'WorkloadSpecError',
  'TraceFormatError',
  'TraceReadError',
  'UnknownPolicyError',
  'PolicyParamsError',
  'ScorerSpecError',
  'FitnessWeightsError',
  'KVCapacityError',
  'ModelConfigError',
  'KVTierConfigError',
  'PdConfigError',
  'RunLimitError',
]);

/** Whether `e` is one of {@link CONFIG_REFUSALS}. */
export function isConfigRefusal(e: unknown): e is Error {
  return e !== null && typeof e === 'object' && CONFIG_REFUSALS.has((e as Error).name);
}
