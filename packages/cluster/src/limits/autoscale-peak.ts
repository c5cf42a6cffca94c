import type { SimulationConfig } from '../config-schema.js';
import { RUN_LIMITS } from './run-limits.js';
import type { RunLimitIssue } from './run-limit-error.js';

/** The most instances a run may hold at once once autoscaling adds replicas, and what bounds it. */
export interface AutoscalePeak {
  instances: number;
  /** `maxReplicas 40`, `node pools: 10 nodes × 8 GPUs at TP 1`. */
  bound: string;
  path: readonly string[];
}

/**
 * The fleet autoscaling may grow to: `maxReplicas` per scaling group (two with P/D), or what the
 * node pools can place (each node holds ⌊GPUs per node / TP⌋ replicas), the lower of the two;
 * undefined when autoscaling is off or neither bounds it (the fleet is then its startup size
 * as far as the estimate can tell). `tp` is the run's tensor parallelism.
 */
export function autoscalePeak(config: SimulationConfig, tp: number, scalingGroups: number): AutoscalePeak | undefined {
  const as = config.autoscaling;
  if (as === undefined || as.intervalUs <= 0) return undefined;
  let peak: AutoscalePeak | undefined;
  if (as.maxReplicas !== undefined)
    peak = { instances: as.maxReplicas * scalingGroups, bound: `maxReplicas ${as.maxReplicas}${scalingGroups > 1 ? ` × ${scalingGroups} scaling groups` : ''}`, path: ['autoscaling', 'maxReplicas'] };
  if (config.nodePools !== undefined) {
    const perPool = config.nodePools.map((p) => ({ p, replicas: p.maxNodes * Math.floor(p.gpusPerNode / tp) }));
    const placed = perPool.reduce((n, x) => n + x.replicas, 0);
    if (peak === undefined || placed < peak.instances)
      peak = { instances: placed, bound: `node pools: ${perPool.map(({ p }) => `${p.maxNodes} nodes × ${p.gpusPerNode} GPUs`).join(' + ')} at TP ${tp}`, path: ['nodePools'] };
  }
  if (peak === undefined || peak.instances <= config.numInstances) return undefined;
  return peak;
}

/** The instance limit applied to the fleet autoscaling may reach, not only to its startup size. */
export function autoscaleLimitIssues(peak: AutoscalePeak | undefined): RunLimitIssue[] {
  if (peak === undefined || peak.instances <= RUN_LIMITS.maxInstances) return [];
  return [{ path: peak.path, expected: `at most ${RUN_LIMITS.maxInstances} instances (autoscaling included)`, found: `${peak.instances} (${peak.bound})` }];
}
