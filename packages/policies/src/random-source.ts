/** A deterministic random stream handed to policies that need randomness. Never Math.random. */
export interface RandomSource {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  nextInt(n: number): number;
}
