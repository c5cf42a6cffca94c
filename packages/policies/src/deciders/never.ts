import type { DisaggregationDecider, DisaggregationDecision } from '../interfaces.js';

const LOCAL: DisaggregationDecision = Object.freeze({ disaggregate: false, reason: 'never' });

/** Never disaggregates: every request runs whole on its decode pod (BLIS's default). */
export function createNeverDecider(): DisaggregationDecider {
  return { name: 'never', decide: () => LOCAL };
}
