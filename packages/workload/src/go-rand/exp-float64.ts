import { goLog } from './go-log.js';
import type { UniformDraws } from './uniform-draws.js';
import { FE, KE, WE } from './ziggurat-exp-tables.js';

/** Start of the tail beyond the last layer (Go's `re`). */
const RE = 7.69711747013105; // the double Go's constant 7.69711747013104972 rounds to

/**
 * The left side of layer i's wedge test, FE[i] + float32(u)·(FE[i-1] - FE[i]), in float32 as Go
 * computes it: rounded after every operation (a double holds each exact float32 sum or product,
 * so rounding it once with Math.fround gives float32's result).
 */
export function expWedge(i: number, u: number): number {
  return Math.fround(FE[i] + Math.fround(Math.fround(u) * Math.fround(FE[i - 1] - FE[i])));
}

/**
 * Go's `ExpFloat64`: one 32-bit draw picks a layer (low 8 bits) and a point in it; most draws
 * land inside the layer's rectangle and return at once. The rest either fall in the tail (layer 0,
 * sampled by inversion) or face the wedge test against exp(-x).
 *
 * The tail's value is returned as computed, so it uses goLog (Go's amd64 math.Log, bit for bit)
 * rather than Math.log, which differs from Go in the last bit for about 2% of arguments.
 * The wedge test uses Math.exp: it disagrees with Go's math.Exp by an ulp for about 15% of
 * arguments (Go's amd64 Exp even changes with the CPU's FMA support), but only float32(exp) is
 * used, and in 10 million arguments over the ziggurat's range the float32 values never differed.
 * A flip needs the ulp to straddle a float32 rounding boundary and the wedge to land exactly on
 * it: a possible, rare source of divergence that the long checksums in the tests have not shown.
 */
export function expFloat64(r: UniformDraws): number {
  for (;;) {
    const j = r.uint32();
    const i = j & 0xff;
    const x = j * WE[i];
    if (j < KE[i]) return x;
    if (i === 0) return RE - goLog(r.float64());
    if (expWedge(i, r.float64()) < Math.fround(Math.exp(-x))) return x;
  }
}
