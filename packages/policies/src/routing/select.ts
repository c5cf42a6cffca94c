import type { RouterState } from '../views.js';

/** Index of the highest value; ties go to the lowest index (strict comparison). */
export function argmax(values: ArrayLike<number>, n: number = values.length): number {
  let best = 0;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    if (values[i] > bestValue) {
      bestValue = values[i];
      best = i;
    }
  }
  return best;
}

/** Position of the instance minimising `key`; ties go to the lowest position. */
export function argminBy<T>(items: readonly T[], key: (item: T) => number): number {
  let best = 0;
  let bestValue = Number.POSITIVE_INFINITY;
  for (let i = 0; i < items.length; i++) {
    const v = key(items[i]);
    if (v < bestValue) {
      bestValue = v;
      best = i;
    }
  }
  return best;
}

/** Routing needs somewhere to send the request; an empty pool is the caller's bug. */
export function requireInstances(policy: string, state: RouterState): number {
  const n = state.instances.length;
  if (n === 0) throw new Error(`${policy}: RouterState has no instances to route to`);
  return n;
}
