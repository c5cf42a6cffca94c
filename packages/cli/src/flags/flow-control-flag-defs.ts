import type { FlagDef } from './flags.js';

// Gateway flow control's flags (BLIS HEAD's names and defaults), alone so that `--help` needs
// no simulator code; flow-control-flags.ts turns their values into `flowControl`.

const FLOW = 'Gateway flow control';

export const FLOW_CONTROL_FLAGS: readonly FlagDef[] = [
  { name: 'flow-control', kind: 'bool', group: FLOW, description: 'hold admitted requests in a gateway queue (priority bands, per-tenant flows) and dispatch them while the saturation detector says the pool has room' },
  { name: 'saturation-detector', kind: 'string', choices: ['utilization', 'concurrency', 'never'], group: FLOW, description: 'what gates dispatch: utilization (mean of max(queue depth / --queue-depth-threshold, KV use / --kv-cache-util-threshold)), concurrency (in flight / (instances x --max-concurrency)), never (pass-through)', defaultText: 'never' },
  { name: 'queue-depth-threshold', aliases: ['saturation-queue-threshold'], kind: 'posNumber', group: FLOW, description: 'utilization detector: wait-queue depth at which an instance counts as full (also RouterState.saturation)', defaultText: '5' },
  { name: 'kv-cache-util-threshold', aliases: ['saturation-kv-threshold'], kind: 'posNumber', group: FLOW, description: 'utilization detector: KV utilisation at which an instance counts as full (also RouterState.saturation)', defaultText: '0.8' },
  { name: 'max-concurrency', kind: 'posInt', group: FLOW, description: 'concurrency detector: requests in flight per instance at saturation', defaultText: '100' },
  { name: 'dispatch-order', kind: 'string', choices: ['fifo', 'priority', 'slo-deadline'], group: FLOW, description: 'order within a band: fifo and priority take arrival order (bands are always highest first), slo-deadline the earliest enqueue + SLO target', defaultText: 'fifo' },
  { name: 'slo-targets', kind: 'string', group: FLOW, description: 'TTFT target per SLO class in µs for slo-deadline, "critical=100000,standard=500000" (a request\'s own slo_target_us comes first)' },
  { name: 'fairness-policy', kind: 'string', choices: ['global-strict', 'round-robin'], group: FLOW, description: 'which tenant of a band dispatches next: the earliest head (global-strict) or each in turn (round-robin)', defaultText: 'global-strict' },
  { name: 'max-gateway-queue-depth', kind: 'nonNegInt', group: FLOW, description: 'requests held at most at the gateway; a newcomer to a full queue is turned away (0 = unbounded)', defaultText: '0' },
  { name: 'per-band-capacity', kind: 'nonNegInt', group: FLOW, description: 'requests held at most per priority band; a newcomer to a full band is turned away (0 = unbounded)', defaultText: '0' },
  { name: 'usage-limit-threshold', kind: 'fraction', group: FLOW, description: 'ceiling of the lowest band: band ceilings fall from 1 (highest) to this, and dispatch stops at the first band whose ceiling the saturation reaches (1 = no head-of-line gating)', defaultText: '1' },
  { name: 'dispatch-tick-interval', kind: 'nonNegInt', group: FLOW, description: 'µs between the gateway\'s dispatch attempts while requests wait (one request per attempt, plus one per arrival; 0 = 1000)', defaultText: '1000' },
  { name: 'request-ttl', kind: 'nonNegInt', group: FLOW, description: 'µs a request may wait at the gateway before it expires (0 = no limit)', defaultText: '0' },
  { name: 'queue-shedding', kind: 'bool', group: FLOW, description: 'a full queue displaces its least urgent sheddable request (negative priority) for a more urgent newcomer (BLIS\'s, not GIE\'s)' },
  { name: 'in-flight-eviction', kind: 'bool', group: FLOW, description: 'saturated with non-sheddable requests waiting: evict the latest-dispatched sheddable request from its instance (BLIS\'s, not GIE\'s)' },
  { name: 'saturation-limit', kind: 'posNumber', group: FLOW, description: 'scales every band\'s ceiling: the gateway dispatches while saturation is below it (1 = BLIS and GIE)', defaultText: '1' },
];
