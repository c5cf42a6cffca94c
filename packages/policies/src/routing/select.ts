import type { RandomSource } from '../random-source.js';
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

/**
 * Index of the highest value. Ties go to the lowest index, or, with `random`, to one of the tied
 * indexes drawn uniformly (`random.nextInt(ties)` over them in index order, one draw and only
 * when two or more tie), as BLIS breaks them with its router stream.
 */
export function argmaxTieBreak(values: ArrayLike<number>, n: number, random: RandomSource | undefined): number {
  const best = argmax(values, n);
  if (random === undefined) return best;
  const top = values[best];
  return drawTied(best, n, (i) => values[i] === top, random);
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

/** {@link argminBy} with {@link argmaxTieBreak}'s tie rule. */
export function argminByTieBreak<T>(items: readonly T[], key: (item: T) => number, random: RandomSource | undefined): number {
  const best = argminBy(items, key);
  if (random === undefined) return best;
  const low = key(items[best]);
  return drawTied(best, items.length, (i) => key(items[i]) === low, random);
}

/** Of the positions from `first` (itself tied) to `n` for which `tied` holds, one drawn from `random` when two or more. */
function drawTied(first: number, n: number, tied: (i: number) => boolean, random: RandomSource): number {
  let ties = 0;
  for (let i = first; i < n; i++) if (tied(i)) ties++;
  if (ties < 2) return first;
  let k = random.nextInt(ties);
  for (let i = first; i < n; i++) if (tied(i) && k-- === 0) return i;
  return first;
}

/** Routing needs somewhere to send the request; an empty pool is the caller's bug. */
export function requireInstances(policy: string, state: RouterState): number {
  const n = state.instances.length;
  if (n === 0) throw new Error(`${policy}: RouterState has no instances to route to`);
  return n;
}
