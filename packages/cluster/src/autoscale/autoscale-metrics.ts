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
