import type { DisaggregationDecider, DisaggregationDecision } from '../interfaces.js';

const SPLIT: DisaggregationDecision = Object.freeze({ disaggregate: true, reason: 'always' });

/** Disaggregates every request: prefill on a prefill pod, then a KV transfer to the decode pod. */
export function createAlwaysDecider(): DisaggregationDecider {
  return { name: 'always', decide: () => SPLIT };
}
