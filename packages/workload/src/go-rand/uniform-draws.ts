/**
 * The two draws Go's ziggurat samplers take from their Rand: `Uint32` for the layer and point,
 * `Float64` for the tail and wedge tests. A structural type, so the samplers need not import
 * GoRand (which imports them).
 */
export interface UniformDraws {
  uint32(): number;
  float64(): number;
}
