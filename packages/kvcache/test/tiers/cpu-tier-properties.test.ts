import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CpuTier, KVCache, ROOT_HASH, chainHash } from '../../src/index.js';
import { batchOf } from './mirror-batch.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// The CPU tier's mirror skips verified segments and splices runs instead of moving each block;
// whatever it does, the CPU LRU must end each operation in exactly the order, with exactly the
// stores and evictions, of BLIS's MirrorToCPU (every full hashed block of every running request,
// in batch order, moved to the tail or stored there). Checked after every operation.

const B = 4;
const OWNERS = 5;

class ReferenceCpu {
  order: number[] = [];
  mirrored = 0;
  evictions = 0;
  constructor(private readonly capacity: number) {}
  touch(h: number): void {
    const i = this.order.indexOf(h);
    if (i >= 0) {
      this.order.splice(i, 1);
      this.order.push(h);
    }
  }
  touchOrStore(h: number): void {
    if (this.order.includes(h)) {
      this.touch(h);
      return;
    }
    if (this.order.length === this.capacity) {
      this.order.shift();
      this.evictions++;
    }
    this.order.push(h);
    this.mirrored++;
  }
}

type Op =
  | { t: 'admit'; owner: number; prompt: number; blocks: number }
  | { t: 'grow'; owner: number; tokens: number }
  | { t: 'release'; owner: number }
  | { t: 'mirror' }
  | { t: 'reload'; prompt: number };

const owner = fc.nat(OWNERS - 1);
const prompt = fc.nat(5);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('admit' as const), owner, prompt, blocks: fc.nat(6) }),
  fc.record({ t: fc.constant('grow' as const), owner, tokens: fc.nat(9) }),
  fc.record({ t: fc.constant('release' as const), owner }),
  { arbitrary: fc.record({ t: fc.constant('mirror' as const) }), weight: 4 },
  fc.record({ t: fc.constant('reload' as const), prompt }),
);

/** Prompts over a 2-symbol alphabet of block contents: shared prefixes are frequent. */
const promptsArb = fc.array(fc.array(fc.nat(1), { minLength: 1, maxLength: 7 }), { minLength: 6, maxLength: 6 });

function chain(keys: number[]): Float64Array {
  const out = new Float64Array(keys.length);
  let h = ROOT_HASH;
  keys.forEach((k, i) => {
    h = chainHash(h, k);
    out[i] = h;
  });
  return out;
}

describe('CPU tier mirror (fast-check)', () => {
  it('matches a move-to-tail reference after every operation', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 4, max: 40 }), promptsArb, fc.array(opArb, { maxLength: 120 }), (cpuBlocks, gpuBlocks, prompts, ops) => {
        const gpu = new KVCache({ totalBlocks: gpuBlocks, blockSizeTokens: B });
        const tier = new CpuTier({ kind: 'cpu', cpuBlocks, transferBandwidth: 100, transferBaseLatencyUs: 0 }, gpu);
        const ref = new ReferenceCpu(cpuBlocks);
        tier.watch({ onReload: (h) => ref.touch(h) });
        const hashes = prompts.map(chain);
        // Running requests in batch order: [owner, prompt index, its hash list object].
        const running: { owner: number; hashes: Float64Array; key: number }[] = [];
        let admissions = 0;
        for (const op of ops) {
          const at = 'owner' in op ? running.findIndex((r) => r.owner === op.owner) : -1;
          if (op.t === 'admit' && at < 0) {
            // A fresh object per admission, as the engine's requests are.
            const h = hashes[op.prompt].slice();
            if (gpu.allocate(op.owner, op.blocks * B, h, 0, true)) running.push({ owner: op.owner, hashes: h, key: admissions++ });
          } else if (op.t === 'grow' && at >= 0) {
            gpu.allocate(op.owner, op.tokens, running[at].hashes, 0, false);
          } else if (op.t === 'release' && at >= 0) {
            gpu.release(op.owner);
            running.splice(at, 1);
          } else if (op.t === 'mirror') {
            tier.mirror(batchOf(running.map((r) => ({ owner: r.owner, hashes: r.hashes, key: r.key }))), 0);
            for (const r of running) {
              const m = Math.min(Math.floor(gpu.tokensHeldBy(r.owner) / B), r.hashes.length);
              for (let i = 0; i < m; i++) ref.touchOrStore(r.hashes[i]);
            }
          } else if (op.t === 'reload') {
            const h = hashes[op.prompt];
            tier.admit(99, h, h.length, 0);
          }
          expect(tier.cpuOrder()).toEqual(ref.order);
          expect(tier.stats().mirrored).toBe(ref.mirrored);
          expect(tier.stats().cpuEvictions).toBe(ref.evictions);
          tier.checkConsistency();
        }
      }),
      { numRuns: propertyRuns(1000), verbose: true },
    );
  });
});
