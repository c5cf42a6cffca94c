import { summarizeUsAsMs } from '@blis/engine/internal';
import type { ClusterSimulator } from './cluster-simulator.js';

/** What the flow-control gateway did over the run. */
export interface GatewayMetrics {
  /** Turned away (band or queue full) plus displaced from a full queue. */
  shed_requests: number;
  /** Turned away at enqueue, their band or the whole queue being full (BLIS's gateway_queue_rejected). */
  queue_rejected: number;
  /** Displaced from a full queue by a more urgent request (--queue-shedding; BLIS's gateway_queue_shed). */
  queue_shed: number;
  /** Expired in the queue (--request-ttl; BLIS's gateway_expired). */
  expired_requests: number;
  /** Evicted from their instance (--in-flight-eviction; BLIS's gateway_evicted). */
  evicted_requests: number;
  /** Requests that entered the queue. */
  enqueued_requests: number;
  /** Still waiting at the end of the run (BLIS's gateway_queue_depth). */
  still_queued: number;
  /** The most requests one priority band held at once. */
  max_band_depth: number;
  delay_mean_ms: number;
  delay_p99_ms: number;
}

/** The gateway's metrics of a finished run; null without flow control. */
export function gatewayMetrics(sim: ClusterSimulator): GatewayMetrics | null {
  const flow = sim.flow;
  if (flow === undefined) return null;
  const c = sim.counters;
  const delay = summarizeUsAsMs(sim.gatewayDelayUs.view());
  return {
    shed_requests: c.shed,
    queue_rejected: flow.counts.queueRejected,
    queue_shed: flow.counts.queueShed,
    expired_requests: c.expired,
    evicted_requests: c.evicted,
    enqueued_requests: flow.counts.enqueued,
    still_queued: sim.gatewayLength,
    max_band_depth: flow.counts.maxBandLength,
    delay_mean_ms: delay.mean,
    delay_p99_ms: delay.p99,
  };
}
