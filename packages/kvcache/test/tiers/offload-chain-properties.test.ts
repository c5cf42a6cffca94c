import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFERRED, KVCache, type KVTierStats, OffloadChain, ROOT_HASH, chainHash } from '../../src/index.js';
import { KeyIndex } from '../../src/tiers/key-index.js';
import { chainConfig, fsTier, mirrorOf } from './helpers.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// Random workloads driven through a real KVCache and OffloadChain in the engine's step order
// (setClock, pollDeferred, admissions, mirror, completions): every invariant the chain checks
// holds after every step, counters never go back, and two runs of one workload agree.

/** Prompts over a 3-letter alphabet of block contents, so that prefixes are shared often. */
// Unbiased: fast-check's small-value bias would make most prompts one block of content 0.
const promptArb = fc.noBias(fc.array(fc.nat(2), { minLength: 1, maxLength: 5 }));
const PROMPTS = 10;

type Op = { t: 'arrive'; prompt: number } | { t: 'step'; dt: number; finish: number };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('arrive' as const), prompt: fc.noBias(fc.nat(PROMPTS - 1)) }),
  // Steps shorter than a write (499 µs on nvme_gen4) and longer than one (4344 µs on sata_ssd).
  fc.record({ t: fc.constant('step' as const), dt: fc.oneof(fc.integer({ min: 1, max: 600 }), fc.integer({ min: 1, max: 20_000 })), finish: fc.nat(3) }),
);

interface Waiting {
  key: number;
  hashes: Float64Array;
}

function simulate(prompts: number[][], ops: Op[], cpuBlocks: number, gpuBlocks: number, tiers: number, check: boolean): KVTierStats {
  const gpu = new KVCache({ totalBlocks: gpuBlocks, blockSizeTokens: 16 });
  const tierConfigs = [fsTier('nvme_gen4', { nReadThreads: 1, nWriteThreads: 1 }), fsTier('sata_ssd', { nReadThreads: 1, nWriteThreads: 1 })].slice(0, tiers);
  const chain = new OffloadChain(chainConfig(cpuBlocks, tierConfigs), gpu);
  const hashesOf = prompts.map((p) => {
    const h = new Float64Array(p.length);
    let prev = ROOT_HASH;
    for (let i = 0; i < p.length; i++) h[i] = prev = chainHash(prev, p[i]);
    return h;
  });
  const waiting: Waiting[] = [];
  const running: { owner: number; tokens: number }[] = [];
  const freeOwners: number[] = [];
  let nextOwner = 0;
  let nextKey = 0;
  let now = 0;
  let last = chain.stats();
  for (const op of ops) {
    if (op.t === 'arrive') {
      waiting.push({ key: nextKey++, hashes: hashesOf[op.prompt % hashesOf.length] });
      continue;
    }
    now += op.dt;
    chain.setClock(now);
    chain.pollDeferred(now);
    for (let i = 0; i < waiting.length; ) {
      const w = waiting[i];
      const cached = chain.admit(w.key, w.hashes, w.hashes.length, now);
      if (cached === DEFERRED) {
        if (chain.isDeferred(w.key)) {
          i++;
          continue;
        }
        break;
      }
      if (check && chain.isDeferred(w.key)) throw new Error(`request ${w.key} admitted while deferred`);
      const owner = freeOwners.pop() ?? nextOwner++;
      const tokens = 16 * w.hashes.length;
      if (!gpu.allocate(owner, tokens - 16 * cached, w.hashes, cached, true)) {
        if (chain.lastReloaded === 0) chain.allocationFailed();
        freeOwners.push(owner);
        break;
      }
      running.push({ owner, tokens });
      waiting.splice(i, 1);
    }
    chain.mirror(
      mirrorOf(
        running.map((r) => r.owner),
        running.map((r) => r.tokens),
      ),
      now,
    );
    for (let k = 0; k < op.finish && running.length > 0; k++) {
      const r = running.shift() as { owner: number };
      gpu.release(r.owner);
      freeOwners.push(r.owner);
    }
    if (check) {
      chain.checkConsistency();
      const s = chain.stats();
      for (const f of ['gpuHits', 'gpuMisses', 'tierMisses', 'mirrored', 'reloaded', 'cpuEvictions', 'mirrorSkipped', 'promotionsFired', 'promotionsFailed', 'deferrals'] as const)
        if (s[f] < last[f]) throw new Error(`${f} went back from ${last[f]} to ${s[f]}`);
      const written = s.secondaryWrites.reduce((a, b) => a + b, 0);
      if (written > s.mirrored * tiers) throw new Error(`${written} writes landed for ${s.mirrored} stores on ${tiers} tiers`);
      last = s;
    }
  }
  return chain.stats();
}

describe('OffloadChain under random workloads', () => {
  it('keeps every invariant at every step, and is deterministic', () => {
    fc.assert(
      fc.property(
        fc.array(promptArb, { minLength: PROMPTS, maxLength: PROMPTS }),
        fc.array(opArb, { minLength: 40, maxLength: 120 }),
        fc.integer({ min: 1, max: 12 }),
        // A small GPU, so prompts leave it and come back from the tiers.
        fc.integer({ min: 5, max: 10 }),
        fc.integer({ min: 0, max: 2 }),
        (prompts, ops, cpuBlocks, gpuBlocks, tiers) => {
          const a = simulate(prompts, ops, cpuBlocks, gpuBlocks, tiers, true);
          expect(simulate(prompts, ops, cpuBlocks, gpuBlocks, tiers, false)).toEqual(a);
          if (tiers === 0) expect(a.deferrals).toBe(0);
        },
      ),
      { seed: 0x5eed_0003, verbose: true, numRuns: propertyRuns(200) },
    );
  });
});

describe('KeyIndex', () => {
  it('agrees with a Map under random inserts and deletes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 300 }), fc.nat(1000))), (ops) => {
        const idx = new KeyIndex(2);
        const ref = new Map<number, number>();
        for (const [put, k, v] of ops) {
          const key = k * 2 ** 33 + k; // spread over both halves
          if (put) {
            idx.set(key, v);
            ref.set(key, v);
          } else expect(idx.delete(key)).toBe(ref.delete(key));
          expect(idx.size).toBe(ref.size);
        }
        for (let k = 0; k <= 300; k++) expect(idx.get(k * 2 ** 33 + k)).toBe(ref.get(k * 2 ** 33 + k) ?? -1);
      }),
      { seed: 0x5eed_0004, verbose: true },
    );
  });
});
