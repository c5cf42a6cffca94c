import type { ReplicaMetrics } from '../../src/index.js';

// The builders live in @blis/policies/testing; these names are what the autoscaler tests use.
export {
  autoScaleContext as context,
  DEFAULT_REPLICA_KV_TOKENS as H100_KV_TOKENS,
  replicaMetrics as replica,
} from '../../src/testing/index.js';

/** `n` replicas each holding `kvTokensInUse` tokens, queues empty. */
export function holding(n: number, kvTokensInUse: number): Partial<ReplicaMetrics>[] {
  return Array.from({ length: n }, () => ({ kvTokensInUse }));
}
