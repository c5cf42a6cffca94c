import type { EncodeStats } from './encode-stage.js';

/** The `pd.encode` section of an E/P/D run's result. */
export interface EncodeMetrics {
  /** The encode decider (`never`, `always`, `multimodal`, or a custom one's name). */
  decider: string;
  /** Requests that got an encode pod. */
  encoded_requests: number;
  /** Requests rejected because no encode pod was routable (BLIS's Encode Routing Rejections); counted in `rejected_requests` too. */
  encode_routing_rejections: number;
  /** Per encode pod (instance id), the requests it was chosen for. */
  encode_distribution: Record<string, number>;
}

export function encodeMetrics(decider: string, stats: EncodeStats, ids: readonly string[], members: readonly number[]): EncodeMetrics {
  const distribution: Record<string, number> = {};
  for (const i of members) distribution[ids[i]] = stats.chosen[i] ?? 0;
  return { decider, encoded_requests: stats.encoded, encode_routing_rejections: stats.rejections, encode_distribution: distribution };
}
