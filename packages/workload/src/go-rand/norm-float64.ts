import { goLog } from './go-log.js';
import type { UniformDraws } from './uniform-draws.js';
import { FN, KN, WN } from './ziggurat-norm-tables.js';

/** Start of the tail beyond the last layer (Go's `rn`). */
const RN = 3.442619855899;
/**
 * Go writes `1.0 / rn`, a constant expression it evaluates exactly and rounds once. Dividing the
 * already-rounded RN in JS happens to give the same double; the vectors test checks it.
 */
const INV_RN = 1 / RN;

/**
 * The left side of layer i's wedge test, FN[i] + float32(u)·(FN[i-1] - FN[i]), in float32 as Go
 * computes it: rounded after every operation (a double holds each exact float32 sum or product,
 * so rounding it once with Math.fround gives float32's result).
 */
export function normWedge(i: number, u: number): number {
  return Math.fround(FN[i] + Math.fround(Math.fround(u) * Math.fround(FN[i - 1] - FN[i])));
}

/**
 * Go's `NormFloat64`: one signed 32-bit draw picks a layer (low 7 bits), a side and a point;
 * most return at once. Layer 0's tail is sampled with Marsaglia's two-logarithm method (goLog,
 * Go's amd64 math.Log, since those logarithms shape the returned value); the other layers' wedges
 * compare against float32(exp(-x²/2)). As in expFloat64, Math.exp can differ from Go's math.Exp
 * by an ulp, which could flip a wedge decision only in a float32 tie: a possible, rare source of
 * divergence that the checksums over millions of draws have not shown.
 */
export function normFloat64(r: UniformDraws): number {
  for (;;) {
    const j = r.uint32() | 0; // Go reads the draw as an int32
    const i = j & 0x7f;
    let x = j * WN[i];
    // |j| as Go's absInt32 gives it: uint32(-j), so -2^31 maps to 2^31.
    if ((j < 0 ? -j : j) < KN[i]) return x;
    if (i === 0) {
      for (;;) {
        x = -goLog(r.float64()) * INV_RN;
        const y = -goLog(r.float64());
        if (y + y >= x * x) break;
      }
      // -(RN + x), which is -RN - x exactly, by a sign: both arms of a `?:` that computes are
      // not run before this function is optimised, and the one not run would deoptimise it.
      return (RN + x) * (j > 0 ? 1 : -1);
    }
    if (normWedge(i, r.float64()) < Math.fround(Math.exp(-0.5 * x * x))) return x;
  }
}
