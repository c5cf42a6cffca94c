import { InvariantViolation } from '@blis/engine';

/** A replica's lifecycle (BLIS's instance states). */
export const InstanceState = {
  /** Created, waiting for a node with free GPUs (or for one being provisioned). */
  Scheduling: 0,
  /** On a node, loading the model: holds GPUs, serves nothing. */
  Loading: 1,
  /** Routable, serving its first requests slower (warm-up TTFT factor). */
  WarmingUp: 2,
  Active: 3,
  /** No longer routable; finishing (or giving up) its requests. */
  Draining: 4,
  Terminated: 5,
} as const;

export type InstanceStateValue = (typeof InstanceState)[keyof typeof InstanceState];

export const INSTANCE_STATE_NAMES = ['scheduling', 'loading', 'warming-up', 'active', 'draining', 'terminated'] as const;

// BLIS's allowed transitions, by source state.
const ALLOWED: readonly (readonly InstanceStateValue[])[] = [
  [InstanceState.Loading, InstanceState.Terminated],
  [InstanceState.WarmingUp, InstanceState.Active, InstanceState.Terminated],
  [InstanceState.Active, InstanceState.Draining, InstanceState.Terminated],
  [InstanceState.Draining, InstanceState.Terminated],
  [InstanceState.Terminated],
  [],
];

export function canTransition(from: InstanceStateValue, to: InstanceStateValue): boolean {
  return ALLOWED[from].includes(to);
}

/** Throws unless `from -> to` is one of BLIS's allowed edges. */
export function checkTransition(id: string, from: InstanceStateValue, to: InstanceStateValue): void {
  if (!canTransition(from, to))
    throw new InvariantViolation('lifecycle', `instance ${id}: ${INSTANCE_STATE_NAMES[from]} -> ${INSTANCE_STATE_NAMES[to]} is not an allowed transition`);
}

/** Routers may send requests to a replica in this state. */
export function isRoutable(s: InstanceStateValue): boolean {
  return s === InstanceState.WarmingUp || s === InstanceState.Active;
}

/** The replica holds its GPUs (and is billed) in this state. */
export function holdsGpus(s: InstanceStateValue): boolean {
  return s >= InstanceState.Loading && s <= InstanceState.Draining;
}
