import { type TraceSink, TraceRecorder } from '@blis/trace';
import type { SimulationConfig } from './config-schema.js';
import { type CustomPolicyNames, activePolicies } from './active-policies.js';

/** What a recorder needs besides the config: where records go, and names of module-loaded policies. */
export interface TraceRecorderSetup extends CustomPolicyNames {
  sink?: TraceSink;
}

/**
 * The window within which a scale action reversing the previous one counts as an oscillation:
 * the longest of the stabilisation windows, the evaluation interval and the cooldown.
 */
export function scaleOscillationWindowUs(
  a: { intervalUs: number; scaleUpStabilizationWindowUs: number; scaleDownStabilizationWindowUs: number; cooldownUs: number } | undefined,
): number | undefined {
  if (a === undefined || a.intervalUs <= 0) return undefined;
  return Math.max(a.scaleUpStabilizationWindowUs, a.scaleDownStabilizationWindowUs, a.intervalUs, a.cooldownUs);
}

/**
 * The decision recorder a run's trace settings ask for. A summary without a trace level still
 * records decisions (the summary is made of them). Built before the cluster: it is the observer.
 */
export function createTraceRecorder(config: SimulationConfig, setup: TraceRecorderSetup = {}): TraceRecorder {
  const t = config.trace;
  const autoscaling = config.autoscaling !== undefined && config.autoscaling.intervalUs > 0 ? config.autoscaling : undefined;
  return new TraceRecorder({
    level: t.level === 'full' ? 'full' : 'decisions',
    counterfactualK: t.counterfactualK,
    sink: setup.sink,
    sloTtftUs: config.sloTtftUs,
    sloE2eUs: config.sloE2eUs,
    tailRatioThreshold: t.tailRatioThreshold,
    instances: config.numInstances,
    scaleCooldownUs: scaleOscillationWindowUs(autoscaling),
    policies: activePolicies(config, setup),
  });
}
