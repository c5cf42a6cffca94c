import type { SaturationDetector, SloPriorityMap } from '@blis/policies';

/** Gateway flow control as the simulator runs it (resolved from the config's `flowControl`). */
export interface FlowControlSettings {
  /** Gates dispatch: the gateway holds requests while the pool's saturation reaches 1 (times `saturationLimit`). */
  detector: SaturationDetector;
  /** `fifo` and `priority` dispatch alike (bands in priority order, arrival order within a flow); `slo-deadline` takes a flow's earliest deadline. */
  dispatchOrder: 'fifo' | 'priority' | 'slo-deadline';
  /** TTFT target per SLO class (µs) for slo-deadline, when a request has no target of its own. */
  sloTargetsUs: Readonly<Record<string, number>>;
  fairness: 'global-strict' | 'round-robin';
  /** Requests held at most at the gateway; 0 = unbounded. */
  maxQueueDepth: number;
  /** Requests held at most per priority band; 0 = unbounded. */
  perBandCapacity: number;
  /** The lowest band's ceiling (highest is 1, those between interpolated); 1 = no head-of-line gating. */
  usageLimitThreshold: number;
  /** µs between the gateway's dispatch attempts while requests wait. */
  dispatchTickIntervalUs: number;
  /** µs a request may wait at the gateway before it expires; 0 = forever. */
  requestTtlUs: number;
  /** A full queue displaces its least urgent sheddable request for a more urgent newcomer. */
  queueShedding: boolean;
  /** While saturated with non-sheddable work waiting, evict a sheddable request from an instance. */
  inFlightEviction: boolean;
  /** Scales every band's ceiling (1 = BLIS and GIE). */
  saturationLimit: number;
  /** SLO class -> band priority (negative = sheddable). */
  priorities: SloPriorityMap;
}
