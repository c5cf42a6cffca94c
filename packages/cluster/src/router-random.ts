import type { RandomSource } from '@blis/policies';
import { goSubsystemRand } from '@blis/workload';

/** The policy streams BLIS draws from Go's math/rand: the routers' (tie-breaks). */
export const GO_ROUTER_STREAMS: ReadonlySet<string> = new Set(['router', 'prefill-router', 'decode-router']);

/**
 * A router's random stream as BLIS seeds it (the run seed XOR FNV-1a of the subsystem name, Go's
 * math/rand), so that tied routing scores go to the instance BLIS picks: `nextInt(n)` is Go's
 * `Intn(n)`, the one call BLIS's routers make.
 */
export function goRouterRandom(seed: number, subsystem: string): RandomSource {
  const g = goSubsystemRand(BigInt(seed), subsystem);
  return { next: () => g.float64(), nextInt: (n) => g.intn(n) };
}
