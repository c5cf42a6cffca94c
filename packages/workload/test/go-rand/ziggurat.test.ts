import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { goLog } from '../../src/go-rand/go-log.js';
import { GoRand } from '../../src/go-rand/go-rand.js';
import { expWedge } from '../../src/go-rand/exp-float64.js';
import { normWedge } from '../../src/go-rand/norm-float64.js';
import { FE, KE, WE } from '../../src/go-rand/ziggurat-exp-tables.js';
import { FN, KN, WN } from '../../src/go-rand/ziggurat-norm-tables.js';
import { floatMismatches, vectors } from './vectors.js';

const bitsOf = (table: Float32Array) => Array.from(new Uint32Array(table.buffer, table.byteOffset, table.length));

/** SHA-256 over the draws as 8-byte little-endian words, as gen-vectors.go hashes them. */
function checksum(method: string, seed: bigint, draws: number): string {
  const r = GoRand.fromSeed(seed);
  const buf = new DataView(new ArrayBuffer(8 * 65536));
  const hash = createHash('sha256');
  let used = 0;
  for (let k = 0; k < draws; k++) {
    if (method === 'intn128256') buf.setBigUint64(used, BigInt(r.intn(128256)), true);
    else buf.setFloat64(used, method === 'expFloat64' ? r.expFloat64() : method === 'normFloat64' ? r.normFloat64() : r.float64(), true);
    used += 8;
    if (used === buf.byteLength || k === draws - 1) {
      hash.update(new Uint8Array(buf.buffer, 0, used));
      used = 0;
    }
  }
  return hash.digest('hex');
}

describe('ExpFloat64 and NormFloat64 match Go 1.19', () => {
  it('the copied ziggurat tables hold the float32 values Go compiles', () => {
    const t = vectors.tables;
    expect(Array.from(KE)).toEqual(t.ke);
    expect(Array.from(KN)).toEqual(t.kn);
    expect(bitsOf(WE)).toEqual(t.weBits);
    expect(bitsOf(FE)).toEqual(t.feBits);
    expect(bitsOf(WN)).toEqual(t.wnBits);
    expect(bitsOf(FN)).toEqual(t.fnBits);
    expect(1 / 3.442619855899).toBe(Number(t.oneOverRn));
  });

  it('the wedge tests round in float32 exactly as Go does', () => {
    const wrong = (list: { i: number; u: string; w: string }[], wedge: (i: number, u: number) => number) =>
      list.filter(({ i, u, w }) => !Object.is(wedge(i, Number(u)), Number(w)));
    expect(wrong(vectors.wedges.exp, expWedge)).toEqual([]);
    expect(wrong(vectors.wedges.norm, normWedge)).toEqual([]);
  });

  it('goLog is Go amd64 math.Log bit for bit', () => {
    const wrong = vectors.log.filter(({ x, log }) => !Object.is(goLog(Number(x)), Number(log)));
    expect(wrong).toEqual([]);
    expect([goLog(0), goLog(-0), goLog(-1), goLog(Number.POSITIVE_INFINITY)]).toEqual([Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN, Number.POSITIVE_INFINITY]);
  });

  for (const v of vectors.seeds) {
    it(`seed ${v.seed}: 200 ExpFloat64 and 200 NormFloat64`, () => {
      const e = GoRand.fromSeed(BigInt(v.seed));
      expect(floatMismatches(v.expFloat64, () => e.expFloat64())).toEqual([]);
      const n = GoRand.fromSeed(BigInt(v.seed));
      expect(floatMismatches(v.normFloat64, () => n.normFloat64())).toEqual([]);
    });
  }

  // Long runs reach the rare branches (tails, wedges, Float64's retry) and would catch an ulp of
  // divergence between Math.exp and Go's math.Exp if it ever changed a draw.
  for (const c of vectors.checksums) {
    it(`${c.draws} ${c.method} draws for seed ${c.seed} hash as in Go`, () => {
      expect(checksum(c.method, BigInt(c.seed), c.draws)).toBe(c.sha256);
    });
  }
});
