import { fnv1a64 } from './fnv1a64.js';
import { GoRand } from './go-rand.js';
import type { GoSeed } from './go-source.js';

// BLIS's PartitionedRNG (sim/rng.go): one Go generator per named subsystem, each seeded from the
// run's master seed, so that adding draws in one subsystem never shifts another's stream.

/** The subsystem that keeps the master seed itself (BLIS kept its pre-partitioning streams). */
export const GO_WORKLOAD_SUBSYSTEM = 'workload';

function toInt64(seed: GoSeed): bigint {
  if (typeof seed === 'number' && !Number.isSafeInteger(seed)) throw new RangeError(`master seed ${seed} is not a safe integer; pass a bigint`);
  const big = BigInt(seed);
  if (big !== BigInt.asIntN(64, big)) throw new RangeError(`master seed ${seed} is outside the int64 range`);
  return big;
}

/**
 * The int64 seed BLIS gives `subsystem`: the master seed for "workload", otherwise
 * `masterSeed XOR fnv1a64(subsystem)` read as a signed int64 (Go's `int64(h.Sum64())`).
 */
export function goSubsystemSeed(masterSeed: GoSeed, subsystem: string): bigint {
  const master = toInt64(masterSeed);
  if (subsystem === GO_WORKLOAD_SUBSYSTEM) return master;
  return BigInt.asIntN(64, master ^ fnv1a64(subsystem));
}

/** A fresh `rand.New(rand.NewSource(goSubsystemSeed(masterSeed, subsystem)))`. */
export function goSubsystemRand(masterSeed: GoSeed, subsystem: string): GoRand {
  return GoRand.fromSeed(goSubsystemSeed(masterSeed, subsystem));
}

/**
 * BLIS's `PartitionedRNG`: `forSubsystem` returns the same generator every time for a name, so
 * that successive callers continue one stream, as `ForSubsystem` does.
 */
export class GoPartitionedRng {
  private readonly streams = new Map<string, GoRand>();
  readonly masterSeed: bigint;

  constructor(masterSeed: GoSeed) {
    this.masterSeed = toInt64(masterSeed);
  }

  forSubsystem(name: string): GoRand {
    let rng = this.streams.get(name);
    if (!rng) {
      rng = goSubsystemRand(this.masterSeed, name);
      this.streams.set(name, rng);
    }
    return rng;
  }
}
