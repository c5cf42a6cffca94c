import { describe, expect, it } from 'vitest';
import { DEFERRED, KVCache, OffloadChain, ROOT_HASH, contentKey, fillBlockHashes, hashString } from '../../src/index.js';
import { chainConfig, fsTier, mirrorOf } from './helpers.js';

// One nvme_gen4 tier (16 + 16 threads, no ramp), 2,097,152-byte blocks:
//   a one-block write takes 80 + floor(2,097,152 / 5000) = 499 µs;
//   a four-block promotion read takes 80 + floor(8,388,608 / 7000) = 1278 µs.
const STEP = 10_000;

function promptHashes(name: string, blocks: number): Float64Array {
  const h = new Float64Array(blocks);
  fillBlockHashes(h, 0, blocks, ROOT_HASH, (i) => contentKey(hashString(name), i));
  return h;
}

interface World {
  gpu: KVCache;
  chain: OffloadChain;
  nextOwner: number;
}

/** An 8-block GPU, a 4-block CPU tier, one nvme_gen4 secondary tier. */
function world(): World {
  const gpu = new KVCache({ totalBlocks: 8, blockSizeTokens: 16 });
  return { gpu, chain: new OffloadChain(chainConfig(4, [fsTier('nvme_gen4')]), gpu), nextOwner: 0 };
}

/** A request runs `hashes` as its 64-token prompt (reusing the GPU-cached prefix), is mirrored at `now` and finishes. */
function runAndMirror(w: World, hashes: Float64Array, now: number): void {
  const owner = w.nextOwner++;
  const cached = w.gpu.cachedPrefixBlocks(hashes);
  expect(w.gpu.allocate(owner, 64 - 16 * cached, hashes, cached, true)).toBe(true);
  w.chain.mirror(mirrorOf([owner], [64]), now);
  w.gpu.release(owner);
}

/** Evicts every hash from the GPU: one request takes all blocks, without hashes, and leaves. */
function flushGpu(w: World): void {
  const owner = w.nextOwner++;
  expect(w.gpu.allocate(owner, w.gpu.totalBlocks * 16, [], 0, true)).toBe(true);
  w.gpu.release(owner);
}

/**
 * Puts prompt P on the secondary tier only: P is mirrored at `t` (written by t + 499), then F's
 * four blocks, mirrored at t + 1000, evict P from the CPU, and the GPU is flushed. By t + 2000
 * F's writes have landed, so the CPU holds F, idle.
 */
function onSecondaryOnly(w: World, p: Float64Array, t: number): void {
  runAndMirror(w, p, t);
  w.chain.setClock(t + 1000);
  runAndMirror(w, promptHashes(`F@${t}`, 4), t + 1000);
  flushGpu(w);
  w.chain.setClock(t + 2000);
  expect(w.gpu.cachedPrefixBlocks(p)).toBe(0);
}

/** Drives one instance step at `now` as the engine does: setClock, pollDeferred, then the admission. */
function step(w: World, key: number, hashes: Float64Array, now: number): number {
  w.chain.setClock(now);
  w.chain.pollDeferred(now);
  return w.chain.admit(key, hashes, hashes.length, now);
}

/** Steps every STEP µs from t0 until `key` is admitted; returns the admission tick. */
function admissionTick(w: World, key: number, hashes: Float64Array, t0: number): number {
  for (let now = t0; now <= t0 + 20 * STEP; now += STEP) {
    const cached = step(w, key, hashes, now);
    if (cached !== DEFERRED) {
      expect(cached).toBe(hashes.length);
      return now;
    }
    w.chain.checkConsistency();
  }
  throw new Error('never admitted');
}

describe('OffloadChain deferral timing (reference §1.9 KV-5)', () => {
  it('cold: RETRY at t0, promotion at t0 + 10,000 (lands t0 + 11,278), admitted at t0 + 20,000', () => {
    const w = world();
    const p = promptHashes('P', 4);
    onSecondaryOnly(w, p, 0);
    const t0 = 10_000;
    expect(step(w, 100, p, t0)).toBe(DEFERRED);
    expect(w.chain.isDeferred(100)).toBe(true);
    expect(w.chain.stats().promotionsFired).toBe(0); // RETRY: the existence check is in flight
    expect(step(w, 100, p, t0 + STEP)).toBe(DEFERRED);
    expect(w.chain.stats().promotionsFired).toBe(1);
    w.chain.setClock(t0 + 11_277);
    w.chain.pollDeferred(t0 + 11_277);
    expect(w.chain.isDeferred(100)).toBe(true); // the read lands at t0 + 11,278
    expect(step(w, 100, p, t0 + 2 * STEP)).toBe(4);
    expect(w.chain.lastReloaded).toBe(4);
    expect(w.chain.isDeferred(100)).toBe(false);
  });

  it('warm is admitted exactly one round earlier than cold: t0 + 10,000 against t0 + 20,000', () => {
    const w = world();
    const p = promptHashes('P', 4);
    onSecondaryOnly(w, p, 0);
    const cold = admissionTick(w, 100, p, 10_000) - 10_000;
    // The admitted request runs and leaves; P is pushed off the CPU and GPU again. Its
    // existence on the tier is now known.
    runAndMirror(w, p, 30_000);
    onSecondaryOnly(w, promptHashes('G', 4), 40_000); // G's blocks evict P's from the CPU
    expect(w.gpu.cachedPrefixBlocks(p)).toBe(0);
    const t1 = 50_000;
    expect(step(w, 200, p, t1)).toBe(DEFERRED);
    expect(w.chain.stats().promotionsFired).toBe(2); // the cold one, and this warm one fired at once
    const warm = admissionTick(w, 200, p, t1 + STEP) - t1;
    expect([cold, warm]).toEqual([20_000, 10_000]);
  });
});

describe('OffloadChain end to end: mirror, evict, promote, reload', () => {
  it('a prompt pushed down to nvme_gen4 comes back onto the GPU through a deferred admission', () => {
    const w = world();
    const p = promptHashes('P', 4);
    onSecondaryOnly(w, p, 0);
    expect(w.chain.stats()).toMatchObject({ mirrored: 8, cpuEvictions: 4, secondaryWrites: [8], promotionsFired: 0 });
    expect(admissionTick(w, 100, p, 10_000)).toBe(30_000);
    expect(w.gpu.cachedPrefixBlocks(p)).toBe(4);
    // The engine's allocation claims the four reloaded blocks as prefix hits.
    expect(w.gpu.allocate(w.nextOwner++, 0, p, 4, true)).toBe(true);
    // GPU misses: P (4), F (4), the flush (8). The promotion evicted F's 4 CPU blocks.
    expect(w.chain.stats()).toEqual({
      kind: 'offload',
      cpuCapacityBlocks: 4,
      gpuHits: 4,
      gpuMisses: 16,
      tierMisses: 0,
      mirrored: 8,
      reloaded: 4,
      cpuEvictions: 8,
      mirrorSkipped: 0,
      promotionsFired: 1,
      promotionsFailed: 0,
      deferrals: 1,
      secondaryWrites: [8],
      transferLatencyUs: 0,
    });
    expect(w.chain.cacheHitRate()).toBe(4 / 20);
    expect(w.chain.thrashingRate()).toBe(0);
    w.chain.checkConsistency();
  });

  it('a promotion the locked CPU tier refuses sends the request to recompute (BC-C5)', () => {
    const w = world();
    const p = promptHashes('P', 4);
    runAndMirror(w, p, 0);
    w.chain.setClock(1000); // P's writes landed
    runAndMirror(w, promptHashes('F', 4), 1000); // F evicts P on the CPU; F pinned until 1499
    flushGpu(w);
    expect(step(w, 100, p, 1100)).toBe(DEFERRED); // cold: RETRY
    // Next round F is still pinned: free 0 + evictable 0 < 4, the promotion is refused and the
    // episode goes to recompute. The admission then walks the chain, which tries once more
    // (refused again) and reloads nothing.
    w.chain.setClock(1200);
    w.chain.pollDeferred(1200);
    expect(w.chain.isDeferred(100)).toBe(false);
    expect(w.chain.stats().promotionsFailed).toBe(1);
    expect(w.chain.admit(100, p, 4, 1200)).toBe(0);
    expect(w.chain.lastReloaded).toBe(0);
    expect(w.chain.stats()).toMatchObject({ promotionsFired: 0, promotionsFailed: 2, deferrals: 1 });
    expect(w.chain.thrashingRate()).toBe(1);
  });

  it('a second request needing a block being promoted waits for that promotion (no second read)', () => {
    const w = world();
    const p = promptHashes('P', 4);
    onSecondaryOnly(w, p, 0);
    expect(step(w, 1, p, 10_000)).toBe(DEFERRED); // cold RETRY
    expect(step(w, 1, p, 20_000)).toBe(DEFERRED); // promotion fired: P's blocks at -1
    expect(w.chain.admit(2, p, 4, 20_000)).toBe(DEFERRED); // HIT_PENDING: waits, PROMOTING
    expect(w.chain.isDeferred(2)).toBe(true);
    w.chain.setClock(30_000);
    w.chain.pollDeferred(30_000);
    expect(w.chain.admit(1, p, 4, 30_000)).toBe(4);
    expect(w.chain.admit(2, p, 4, 30_000)).toBe(4);
    expect(w.chain.stats()).toMatchObject({ promotionsFired: 1, deferrals: 2 });
  });

  it('clearDeferred forgets the episode; a fresh admission classifies again', () => {
    const w = world();
    const p = promptHashes('P', 4);
    onSecondaryOnly(w, p, 0);
    expect(step(w, 1, p, 10_000)).toBe(DEFERRED);
    w.chain.clearDeferred(1);
    expect(w.chain.isDeferred(1)).toBe(false);
    // The RETRY round never ran, so P's existence is still unknown: cold again.
    expect(step(w, 1, p, 20_000)).toBe(DEFERRED);
    expect(w.chain.stats()).toMatchObject({ deferrals: 2, promotionsFired: 0 });
  });

  it('a pending episode older than 1e9 µs is sent to recompute (livelock backstop)', () => {
    const w = world();
    const p = promptHashes('P', 4);
    onSecondaryOnly(w, p, 0);
    expect(step(w, 1, p, 10_000)).toBe(DEFERRED);
    w.chain.pollDeferred(10_010); // promotion fired at 10,010, lands at 11,288
    // Polling without applying completions leaves the blocks pending.
    w.chain.pollDeferred(10_000 + 1e9);
    expect(w.chain.isDeferred(1)).toBe(true);
    w.chain.pollDeferred(10_001 + 1e9);
    expect(w.chain.isDeferred(1)).toBe(false);
  });
});
