import type { PolicyBundle } from './policy-bundle-schema.js';
import { resolveAutoscalerSpec } from './autoscaler-spec.js';

// The `node_pools`, `autoscaler` and `instance_lifecycle` sections of a policy bundle as the
// simulation config's `nodePools`, `autoscaling` and `lifecycle` fields, in the config's units:
// BLIS writes delays as `{ mean, stddev }` in seconds, the config in µs. The shapes below mirror
// the config's input types (`@blis/cluster`'s autoscale schema), which this package cannot
// import; fields the bundle leaves out are left out, so the config's defaults apply.

/** A sampled delay in µs (Gaussian, clamped at 0). */
export interface DelayInput {
  meanUs: number;
  stddevUs: number;
}

/** The config's `autoscaling` field. */
export interface AutoscalingInput {
  intervalUs?: number;
  policy?: string;
  params?: Record<string, unknown>;
  minReplicas?: number;
  maxReplicas?: number;
  scaleUpStabilizationWindowUs?: number;
  scaleDownStabilizationWindowUs?: number;
  cooldownUs?: number;
  scrapeDelay?: DelayInput;
}

/** One entry of the config's `nodePools` field. */
export interface NodePoolInput {
  name: string;
  gpuType: string;
  gpusPerNode: number;
  gpuMemoryGib: number;
  initialNodes?: number;
  minNodes?: number;
  maxNodes: number;
  provisioningDelay?: DelayInput;
  costPerHour?: number;
}

/** The config's `lifecycle` field. */
export interface LifecycleInput {
  loadingDelay?: DelayInput;
  provisioningDelay?: DelayInput;
  warmStartInitialInstances?: boolean;
  warmUpRequestCount?: number;
  warmUpDurationUs?: number;
  warmUpTtftFactor?: number;
  drainPolicy?: 'wait' | 'immediate' | 'redirect';
}

/** What a bundle contributes to the config; a field is absent when its section is. */
export interface AutoscaleConfigInput {
  autoscaling?: AutoscalingInput;
  nodePools?: NodePoolInput[];
  lifecycle?: LifecycleInput;
}

export { ANALYZER_AUTOSCALER, ANALYZER_KEYS, type AutoscalerSection, type AutoscalerSpec, type BundlePath, resolveAutoscalerSpec } from './autoscaler-spec.js';

/** Seconds as µs, without the binary noise of `s * 1e6` (1.1 s is 1100000 µs, not ...0002). */
export function secondsToUs(seconds: number): number {
  return Number((seconds * 1e6).toPrecision(15));
}

function delayUs(d: { mean?: number; stddev?: number }): DelayInput {
  return { meanUs: secondsToUs(d.mean ?? 0), stddevUs: secondsToUs(d.stddev ?? 0) };
}

/** Copies `from[key]` to `to[as]` (converted) when it is set. */
function put<F, T>(to: T, as: keyof T, value: F | undefined, convert: (v: F) => unknown = (v) => v): void {
  if (value !== undefined) (to as Record<PropertyKey, unknown>)[as] = convert(value);
}

/**
 * The config fields of a validated bundle's `node_pools`, `autoscaler` and
 * `instance_lifecycle` sections, in the config's units (seconds -> µs). `options.policy` names
 * the autoscaler that will run when a flag overrides the bundle's (see
 * {@link resolveAutoscalerSpec}); settings that then do not apply are named in `warnings`.
 *
 * Unlike BLIS, which reads the autoscaler's windows and analyzer only when `interval_us` > 0,
 * every key present is converted: whether the autoscaler is on is the caller's decision (a
 * command-line interval may turn it on).
 */
export function autoscaleConfigFromBundle(
  bundle: PolicyBundle,
  options: { readonly policy?: string } = {},
): { config: AutoscaleConfigInput; warnings: string[] } {
  const warnings: string[] = [];
  const config: AutoscaleConfigInput = {};

  const a = bundle.autoscaler;
  if (a !== undefined) {
    const spec = resolveAutoscalerSpec(bundle.autoscaler, options.policy, warnings);
    const out: AutoscalingInput = {};
    put(out, 'intervalUs', a.interval_us);
    out.policy = spec.name;
    if (Object.keys(spec.params).length > 0) out.params = spec.params;
    put(out, 'minReplicas', a.min_replicas);
    put(out, 'maxReplicas', a.max_replicas);
    put(out, 'scaleUpStabilizationWindowUs', a.scale_up_stabilization_window_us);
    put(out, 'scaleDownStabilizationWindowUs', a.scale_down_stabilization_window_us);
    put(out, 'cooldownUs', a.cooldown_us);
    put(out, 'scrapeDelay', a.hpa_scrape_delay, delayUs);
    config.autoscaling = out;
  }

  if (bundle.node_pools !== undefined && bundle.node_pools.length > 0) {
    config.nodePools = bundle.node_pools.map((np) => {
      const out: NodePoolInput = {
        name: np.name,
        gpuType: np.gpu_type,
        gpusPerNode: np.gpus_per_node,
        gpuMemoryGib: np.gpu_memory_gib,
        maxNodes: np.max_nodes,
      };
      put(out, 'initialNodes', np.initial_nodes);
      put(out, 'minNodes', np.min_nodes);
      put(out, 'provisioningDelay', np.provisioning_delay, delayUs);
      put(out, 'costPerHour', np.cost_per_hour);
      return out;
    });
  }

  const l = bundle.instance_lifecycle;
  if (l !== undefined) {
    const out: LifecycleInput = {};
    put(out, 'loadingDelay', l.loading_delay, delayUs);
    put(out, 'provisioningDelay', l.provisioning_delay, delayUs);
    put(out, 'warmStartInitialInstances', l.warm_start_initial_instances);
    put(out, 'warmUpRequestCount', l.warm_up_request_count);
    put(out, 'warmUpDurationUs', l.warm_up_duration, secondsToUs);
    // BLIS: 0 means the default factor, 1.
    if (l.warm_up_ttft_factor !== undefined && l.warm_up_ttft_factor !== 0) out.warmUpTtftFactor = l.warm_up_ttft_factor;
    put(out, 'drainPolicy', l.drain_policy);
    config.lifecycle = out;
  }

  return { config, warnings };
}
