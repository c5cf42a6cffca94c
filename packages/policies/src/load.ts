import type { InstanceSnapshot } from './views.js';

/**
 * BLIS's effective load: QueueDepth + BatchSize + InFlightRequests. InFlightRequests is
 * router-owned and current even when the other two are stale, which stops pile-on when many
 * requests are routed within one snapshot interval.
 */
export function effectiveLoad(s: InstanceSnapshot): number {
  return s.queueDepth + s.batchSize + s.inFlightRequests;
}

/**
 * Outstanding requests in RouteSim's sense (queued + in the active batch). RouteSim's router
 * sees its queues synchronously; here the always-current router-side in-flight count plays that
 * role, and the instance-reported sum covers views that carry no in-flight count.
 */
export function outstandingRequests(s: InstanceSnapshot): number {
  const reported = s.queueDepth + s.batchSize;
  return Math.max(s.inFlightRequests, reported);
}

/**
 * The score BLIS's counterfactual analysis gives an instance when the routing decision carried
 * no scores (round-robin, least-loaded, ...): minus its effective load, so less load ranks higher.
 */
export function counterfactualFallbackScore(s: InstanceSnapshot): number {
  return -effectiveLoad(s);
}
