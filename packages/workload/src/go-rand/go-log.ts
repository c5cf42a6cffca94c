/**
 * @license BSD-3-Clause
 * The algorithm and coefficients of Go 1.19's math.Log (src/math/log.go and log_amd64.s).
 * Copyright (c) 2009 The Go Authors. All rights reserved. Used under Go's BSD 3-Clause
 * licence, reproduced in full in rng-cooked.ts and ./PROVENANCE.md. Go took them from
 * FreeBSD's e_log.c, which came with this notice:
 * ====================================================
 * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 *
 * Developed at SunPro, a Sun Microsystems, Inc. business.
 * Permission to use, copy, modify, and distribute this
 * software is freely granted, provided that this notice
 * is preserved.
 * ====================================================
 */

// The natural logarithm exactly as Go's math.Log computes it on amd64.
//
// ExpFloat64 and NormFloat64 return values built from a logarithm in their tail branches, so an
// ulp of difference there is an ulp of difference in a workload. V8's Math.log (an fdlibm port)
// differs from Go's in the last bit for about 2% of the arguments Float64 produces (10 million
// tried), so the ports call this instead. Go on amd64 runs an assembly version of the algorithm in
// math/log.go; every step below is one IEEE double operation in the same order, which JS
// reproduces bit for bit (it never fuses a multiply and an add). Go builds for other
// architectures may fuse them, so they can differ from amd64, and from this, in the last bit.

const LN2_HI = 0.6931471803691238; // 0x3fe62e42fee00000: ln 2 rounded to 33 bits, so k*LN2_HI is exact
const LN2_LO = 1.9082149292705877e-10; // 0x3dea39ef35793c76: the rest of ln 2
const L1 = 0.6666666666666735; // 0x3fe5555555555593
const L2 = 0.3999999999940942; // 0x3fd999999997fa04
const L3 = 0.2857142874366239; // 0x3fd2492494229359
const L4 = 0.22222198432149784; // 0x3fcc71c51d8e78af
const L5 = 0.1818357216161805; // 0x3fc7466496cb03de
const L6 = 0.15313837699209373; // 0x3fc39a09d078c69f
const L7 = 0.14798198605116586; // 0x3fc2f112df3e5244
const TWO_54 = 18014398509481984;

const scratch = new DataView(new ArrayBuffer(8));

/**
 * Go's `math.Log(x)` (amd64). Bit-exact for every positive normal `x` (all that `Float64` can
 * return besides 0); `log(0)` is -Infinity, negative input NaN, as in Go. Subnormals are
 * normalised first as Go's portable code does.
 */
export function goLog(x: number): number {
  if (Number.isNaN(x) || x === Number.POSITIVE_INFINITY) return x;
  if (x < 0) return Number.NaN;
  if (x === 0) return Number.NEGATIVE_INFINITY;

  // Split x = f1 * 2^k with f1 in [0.5, 1) by rewriting the exponent field (Go's Frexp).
  let k = 0;
  if (x < 2.2250738585072014e-308) {
    x *= TWO_54;
    k = -54;
  }
  scratch.setFloat64(0, x);
  const hiWord = scratch.getUint32(0);
  k += ((hiWord >>> 20) & 0x7ff) - 0x3fe;
  scratch.setUint32(0, (hiWord & 0x800fffff) | 0x3fe00000);
  let f1 = scratch.getFloat64(0);

  // Centre the mantissa on 1. The amd64 assembly tests f1 <= sqrt(2)/2 (portable Go uses <); the
  // two differ only at f1 exactly 0x3fe6a09e667f3bcd, where we follow amd64.
  if (f1 <= Math.SQRT1_2) {
    k -= 1;
    f1 *= 2;
  }
  const f = f1 - 1;

  const s = f / (2 + f);
  const s2 = s * s;
  const s4 = s2 * s2;
  const t1 = s2 * (L1 + s4 * (L3 + s4 * (L5 + s4 * L7)));
  const t2 = s4 * (L2 + s4 * (L4 + s4 * L6));
  const r = t1 + t2;
  const hfsq = 0.5 * f * f;
  return k * LN2_HI - (hfsq - (s * (hfsq + r) + k * LN2_LO) - f);
}
