import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CPU_HIT, CPU_HIT_PENDING, CPU_MISS, CpuStagingTier } from '../../src/tiers/cpu-staging-tier.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

/** The mutant BC-C5 forbids: a promotion gated on free slots alone, ignoring evictable blocks. */
class FreeOnlyGate extends CpuStagingTier {
  protected override admits(k: number): boolean {
    return k <= this.free;
  }
}

describe('CpuStagingTier reference counts', () => {
  it('walks -1 → 0 → n → 0 and keeps evictable on the crossings only', () => {
    const t = new CpuStagingTier(4);
    expect(t.prepareStore([10, 11])).toBe(2);
    expect(t.lookup(10)).toBe(CPU_HIT_PENDING);
    expect(t.evictable).toBe(0);
    t.pin(10); // a block being promoted is never pinned
    expect(t.refCount(10)).toBe(-1);
    t.completeStore(10, true);
    expect(t.lookup(10)).toBe(CPU_HIT);
    expect(t.evictable).toBe(1);
    t.pin(10);
    t.pin(10);
    expect(t.refCount(10)).toBe(2);
    expect(t.evictable).toBe(0);
    t.unpin(10);
    expect(t.evictable).toBe(0);
    t.unpin(10);
    expect(t.evictable).toBe(1);
    t.unpin(10); // not pinned: no-op
    expect(t.refCount(10)).toBe(0);
    t.completeStore(11, false);
    expect(t.lookup(11)).toBe(CPU_MISS);
    expect(t.used).toBe(1);
    t.checkConsistency();
  });

  it('store evicts the LRU head, touches refresh recency, and a full tier of locked blocks refuses', () => {
    const t = new CpuStagingTier(2);
    expect(t.store(1)).toBe(true);
    expect(t.store(2)).toBe(true);
    expect(t.store(1)).toBe(true); // touch: 2 is now the oldest
    expect(t.store(3)).toBe(true);
    expect(t.lookup(2)).toBe(CPU_MISS);
    expect(t.lruOrder()).toEqual([1, 3]);
    expect(t.evictions).toBe(1);
    t.pin(1);
    t.pin(3);
    expect(t.store(4)).toBe(false);
    expect(t.lookup(1)).toBe(CPU_HIT);
    expect(t.lookup(3)).toBe(CPU_HIT);
    expect(t.evictions).toBe(1);
    t.checkConsistency();
  });

  it('prepareStore is all or nothing over the keys it lacks, under the free + evictable gate', () => {
    const t = new CpuStagingTier(3);
    t.store(1);
    t.store(2);
    t.pin(2);
    // Lacking 5, 6: free 1 + evictable 1 = 2 >= 2: granted, evicting 1.
    expect(t.prepareStore([2, 5, 6])).toBe(2);
    expect(t.lookup(1)).toBe(CPU_MISS);
    // Lacking 7: free 0 + evictable 0: refused, nothing changes.
    expect(t.prepareStore([7])).toBe(0);
    expect(t.lookup(7)).toBe(CPU_MISS);
    // Every key held already: 0.
    expect(t.prepareStore([5, 6])).toBe(0);
    t.checkConsistency();
  });

  it('BC-C5: the free-only gate refuses a promotion the evictable gate grants', () => {
    const real = new CpuStagingTier(2);
    const mutant = new FreeOnlyGate(2);
    for (const t of [real, mutant]) {
      t.store(1);
      t.store(2);
    }
    // Full, both blocks idle: free 0, evictable 2.
    expect(real.prepareStore([3])).toBe(1);
    expect(real.lookup(1)).toBe(CPU_MISS);
    expect(real.lookup(3)).toBe(CPU_HIT_PENDING);
    expect(mutant.prepareStore([3])).toBe(0);
    expect(mutant.lookup(3)).toBe(CPU_MISS);
  });
});

// ---------------------------------------------------------------------------------------------
// Differential property: the tier against a plain reference model, checked after every operation.

type Op =
  | { t: 'store'; key: number }
  | { t: 'prepare'; keys: number[] }
  | { t: 'complete'; key: number; ok: boolean }
  | { t: 'pin'; key: number }
  | { t: 'unpin'; key: number }
  | { t: 'touch'; key: number };

const KEYS = 12;
const key = fc.nat(KEYS - 1).map((k) => k * 1_000_003 + 2 ** 40); // large, non-Smi keys
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('store' as const), key }),
  fc.record({ t: fc.constant('prepare' as const), keys: fc.uniqueArray(key, { minLength: 1, maxLength: 4 }) }),
  fc.record({ t: fc.constant('complete' as const), key, ok: fc.boolean() }),
  fc.record({ t: fc.constant('pin' as const), key }),
  fc.record({ t: fc.constant('unpin' as const), key }),
  fc.record({ t: fc.constant('touch' as const), key }),
);

class Model {
  ref = new Map<number, number>();
  lru: number[] = [];
  constructor(readonly capacity: number) {}
  private dropLru(k: number): void {
    this.lru.splice(this.lru.indexOf(k), 1);
  }
  private evict(n: number): number {
    let done = 0;
    while (done < n && this.lru.length > 0) {
      this.ref.delete(this.lru.shift() as number);
      done++;
    }
    return done;
  }
  store(k: number): boolean {
    if (this.ref.has(k)) {
      if (this.ref.get(k) === 0) this.touch(k);
      return true;
    }
    if (this.ref.size >= this.capacity && this.evict(1) === 0) return false;
    this.ref.set(k, 0);
    this.lru.push(k);
    return true;
  }
  prepare(keys: number[]): number {
    const fresh = keys.filter((k) => !this.ref.has(k));
    const free = this.capacity - this.ref.size;
    if (fresh.length === 0 || fresh.length > free + this.lru.length) return 0;
    this.evict(fresh.length - free);
    for (const k of fresh) this.ref.set(k, -1);
    return fresh.length;
  }
  complete(k: number, ok: boolean): void {
    if (this.ref.get(k) !== -1) return;
    if (ok) {
      this.ref.set(k, 0);
      this.lru.push(k);
    } else this.ref.delete(k);
  }
  pin(k: number): void {
    const r = this.ref.get(k);
    if (r === undefined || r < 0) return;
    if (r === 0) this.dropLru(k);
    this.ref.set(k, r + 1);
  }
  unpin(k: number): void {
    const r = this.ref.get(k);
    if (r === undefined || r <= 0) return;
    this.ref.set(k, r - 1);
    if (r === 1) this.lru.push(k);
  }
  touch(k: number): void {
    if (this.ref.get(k) !== 0) return;
    this.dropLru(k);
    this.lru.push(k);
  }
}

function apply(t: CpuStagingTier, m: Model, op: Op): void {
  const locked = [...m.ref].filter(([, r]) => r !== 0).map(([k]) => k);
  switch (op.t) {
    case 'store':
      expect(t.store(op.key)).toBe(m.store(op.key));
      break;
    case 'prepare':
      expect(t.prepareStore(op.keys)).toBe(m.prepare(op.keys));
      break;
    case 'complete':
      t.completeStore(op.key, op.ok);
      m.complete(op.key, op.ok);
      break;
    case 'pin':
      t.pin(op.key);
      m.pin(op.key);
      break;
    case 'unpin':
      t.unpin(op.key);
      m.unpin(op.key);
      break;
    case 'touch':
      t.touchKey(op.key);
      m.touch(op.key);
      break;
  }
  // BC-C8: the O(1) counter equals the O(n) scan.
  if (t.evictable !== t.scanEvictable()) throw new Error(`BC-C8: evictable ${t.evictable} != scan ${t.scanEvictable()}`);
  // BC-C4: a block locked before the operation is still there (only a failed completeStore removes one).
  for (const k of locked) {
    const removed = op.t === 'complete' && !op.ok && op.key === k;
    if (!removed && t.lookup(k) === CPU_MISS) throw new Error(`BC-C4: locked block ${k} was evicted by ${JSON.stringify(op)}`);
  }
  expect(t.entries().sort((a, b) => a[0] - b[0])).toEqual([...m.ref].sort((a, b) => a[0] - b[0]));
  expect(t.lruOrder()).toEqual(m.lru);
  t.checkConsistency();
}

const property = (make: (capacity: number) => CpuStagingTier) =>
  fc.property(fc.integer({ min: 1, max: 6 }), fc.array(opArb, { maxLength: 80 }), (capacity, ops) => {
    const t = make(capacity);
    const m = new Model(capacity);
    for (const op of ops) apply(t, m, op);
  });

describe('CpuStagingTier properties', () => {
  it('matches the reference model after every operation; evictable equals the scan; locked blocks are never evicted', () => {
    fc.assert(
      property((c) => new CpuStagingTier(c)),
      { seed: 0x5eed_0002, verbose: true, numRuns: propertyRuns(400) },
    );
  });

  it('the same property catches the free-only gate mutant', () => {
    const result = fc.check(
      property((c) => new FreeOnlyGate(c)),
      { seed: 0x5eed_0002, numRuns: propertyRuns(400) },
    );
    expect(result.failed).toBe(true);
  });
});
