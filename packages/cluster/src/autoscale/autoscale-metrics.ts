/** Seconds replicas spent in each GPU-holding state (waiting for a node holds none). */
export interface ReplicaSecondsByState {
  loading_s: number;
  warming_s: number;
  active_s: number;
  draining_s: number;
}

/** What the autoscaler and the instance lifecycle did, and what the replicas cost. */
export interface AutoscalingMetrics {
  /** Autoscaler evaluations (per scaling group), and the policy that made them. */
  evaluations: number;
  policy: string | null;
  /** Scale actions carried out, and the replicas they created or set draining. */
  scale_up_events: number;
  scale_down_events: number;
  replicas_added: number;
  replicas_drained: number;
  /** Scale-up replicas that found no node and no pool that could grow (never placed). */
  unplaced_replicas: number;
  nodes_provisioned: number;
  /** Applied actions reversing the previous one within max(windows, interval, cooldown). */
  scale_oscillations: number;
  drain_policy: 'wait' | 'immediate' | 'redirect';
  /** Requests discarded by an `immediate` drain (INV-1's drained bucket). */
  drained_dropped: number;
  /** Queued requests a `redirect` drain sent back through admission. */
  redirected: number;
  /** Replica lifetimes from GPU acquisition to termination or the run's end. */
  replica_seconds: number;
  replica_seconds_by_state: ReplicaSecondsByState;
  /** Replica-seconds times each replica's GPUs. */
  gpu_seconds: number;
  /** Replica-seconds / 3600 x each replica's pool `cost_per_hour`. */
  cost_usd: number;
  /** Most GPU-holding replicas at once, and their time-weighted mean over the run. */
  peak_replicas: number;
  mean_replicas: number;
  /** Replicas holding GPUs at the end. */
  final_replicas: number;
}

/** The `autoscaling` section of a result, from what the fleet and the autoscaler counted. */
export function autoscalingMetrics(
  fleet: {
    secondsByState: readonly number[];
    replicaSeconds: number;
    gpuSeconds: number;
    costUsd: number;
    peakReplicas: number;
    finalReplicas: number;
    unplacedReplicas: number;
    inventory: { nodesProvisioned: number };
    settings: { lifecycle: { drainPolicy: 'wait' | 'immediate' | 'redirect' } };
  },
  autoscaler: { stats: { evaluations: number; scaleUpEvents: number; scaleDownEvents: number; replicasAdded: number; replicasDrained: number; oscillations: number }; policyName: string } | undefined,
  counters: { drainedDropped: number; redirected: number },
  endUs: number,
): AutoscalingMetrics {
  const st = autoscaler?.stats;
  const [loading, warming, active, draining] = fleet.secondsByState;
  return {
    evaluations: st?.evaluations ?? 0,
    policy: autoscaler?.policyName ?? null,
    scale_up_events: st?.scaleUpEvents ?? 0,
    scale_down_events: st?.scaleDownEvents ?? 0,
    replicas_added: st?.replicasAdded ?? 0,
    replicas_drained: st?.replicasDrained ?? 0,
    unplaced_replicas: fleet.unplacedReplicas,
    nodes_provisioned: fleet.inventory.nodesProvisioned,
    scale_oscillations: st?.oscillations ?? 0,
    drain_policy: fleet.settings.lifecycle.drainPolicy,
    drained_dropped: counters.drainedDropped,
    redirected: counters.redirected,
    replica_seconds: fleet.replicaSeconds,
    replica_seconds_by_state: { loading_s: loading, warming_s: warming, active_s: active, draining_s: draining },
    gpu_seconds: fleet.gpuSeconds,
    cost_usd: fleet.costUsd,
    peak_replicas: fleet.peakReplicas,
    mean_replicas: endUs > 0 ? fleet.replicaSeconds / (endUs / 1e6) : fleet.finalReplicas,
    final_replicas: fleet.finalReplicas,
  };
}
