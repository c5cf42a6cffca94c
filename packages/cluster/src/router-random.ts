import type { RandomSource } from '@blis/policies';
import { goSubsystemRand } from '@blis/workload/internal';

/** The policy streams BLIS draws from Go's math/rand: the routers' (tie-breaks). */
export const GO_ROUTER_STREAMS: ReadonlySet<string> = new Set(['router', 'prefill-router', 'decode-router']);

/**
 * A router's random stream as BLIS seeds it (the run seed XOR FNV-1a of the subsystem name, Go's
 * math/rand), so that tied routing scores go to the instance BLIS picks: `nextInt(n)` is Go's
 * `Intn(n)`, the one call BLIS's routers make.
 */
export function goRouterRandom(seed: number, subsystem: string): RandomSource {
  // Seeding Go's source fills a 607-word table (some 5 ms in a fresh process); most runs never
  // draw (a single instance, or no tied scores), so it is seeded at the first draw.
  let g: ReturnType<typeof goSubsystemRand> | undefined;
  const rand = () => (g ??= goSubsystemRand(BigInt(seed), subsystem));
  return { next: () => rand().float64(), nextInt: (n) => rand().intn(n) };
}
