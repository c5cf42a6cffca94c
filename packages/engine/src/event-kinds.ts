/**
 * Event kinds and their same-tick priorities. On one instance, events at equal ticks run as
 * BLIS runs them: arrival < queued < adapter loaded < step < scheduled < left < timeout, then insertion order.
 * Cluster events occupy classes below {@link INSTANCE_CLASS_BASE} and so precede every
 * instance event at the same tick; instance i's events precede instance i+1's.
 */
export const EventKind = {
  /** Cluster: a request arrives at the gateway. */
  ClusterArrival: 0,
  /** Cluster: admission decision after `--admission-latency`. */
  Admission: 1,
  /** Cluster: routing decision after `--routing-latency`. */
  Routing: 2,
  /** Cluster: flow-control dispatch attempt. */
  GatewayDispatch: 3,
  /** Instance: a routed request reaches the instance (alpha queueing starts). */
  InstanceArrival: 16,
  /** Instance: the request enters the wait queue. */
  Queued: 17,
  /** Instance: one engine step (schedule, execute, complete, schedule next). */
  Step: 18,
  /** Instance: a LoRA adapter's load completes (before a step at the same tick, so it can admit its requests). */
  AdapterLoaded: 19,
  /** Instance: a request's deadline passes. */
  Timeout: 21,
} as const;

export type EventKindValue = (typeof EventKind)[keyof typeof EventKind];

/** Classes per instance: room for every instance event kind's priority (a power of two: see {@link instanceOfClass}). */
export const CLASS_STRIDE = 8;
const CLASS_SHIFT = 3;
export const INSTANCE_CLASS_BASE = 64;

const INSTANCE_PRIORITY: Record<number, number> = {
  [EventKind.InstanceArrival]: 0,
  [EventKind.Queued]: 1,
  [EventKind.AdapterLoaded]: 2,
  [EventKind.Step]: 3,
  [EventKind.Timeout]: 5,
};

/** The ordering class of an instance event. */
export function instanceClass(instanceIndex: number, kind: number): number {
  return INSTANCE_CLASS_BASE + instanceIndex * CLASS_STRIDE + INSTANCE_PRIORITY[kind];
}

/** The ordering class of a cluster event (its kind is its priority). */
export function clusterClass(kind: number): number {
  return kind;
}

/** Which instance an event class belongs to, or -1 for cluster events. */
export function instanceOfClass(cls: number): number {
  // A shift, not a division: the cluster loop asks this of every event it pops.
  return cls < INSTANCE_CLASS_BASE ? -1 : (cls - INSTANCE_CLASS_BASE) >> CLASS_SHIFT;
}
