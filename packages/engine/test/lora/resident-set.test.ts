import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResidentSet } from '../../src/internal.js';

describe('ResidentSet', () => {
  it('evicts the least recently used unpinned adapter', () => {
    const s = new ResidentSet(3);
    for (const a of [0, 1, 2]) s.add(a);
    expect(s.add(3)).toBe(false); // full: the caller makes room first
    s.touch(0);
    expect(s.ids()).toEqual([1, 2, 0]);
    s.pin(1);
    expect(s.evictLRU()).toBe(2);
    expect(s.add(3)).toBe(true);
    expect(s.ids()).toEqual([1, 0, 3]);
    s.pin(0);
    s.pin(3);
    expect(s.evictLRU()).toBe(-1); // every slot pinned
    s.unpin(3);
    expect(s.evictLRU()).toBe(3);
  });

  it('refuses a set without slots', () => {
    expect(() => new ResidentSet(0)).toThrow(RangeError);
  });

  it('never holds more than its capacity, and never evicts a pinned adapter', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), a: fc.nat(9) }),
      fc.record({ kind: fc.constant('evict' as const), a: fc.constant(0) }),
      fc.record({ kind: fc.constant('pin' as const), a: fc.nat(9) }),
      fc.record({ kind: fc.constant('unpin' as const), a: fc.nat(9) }),
      fc.record({ kind: fc.constant('touch' as const), a: fc.nat(9) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 80 }), (cap, ops) => {
        const s = new ResidentSet(cap);
        const pins = new Map<number, number>();
        for (const o of ops) {
          if (o.kind === 'add') {
            if (s.full && !s.has(o.a)) s.evictLRU();
            s.add(o.a);
          } else if (o.kind === 'evict') {
            const v = s.evictLRU();
            if (v >= 0) expect(pins.get(v) ?? 0).toBe(0);
          } else if (o.kind === 'pin') {
            if (s.pin(o.a)) pins.set(o.a, (pins.get(o.a) ?? 0) + 1);
          } else if (o.kind === 'unpin') {
            if (s.has(o.a) && (pins.get(o.a) ?? 0) > 0) pins.set(o.a, pins.get(o.a)! - 1);
            s.unpin(o.a);
          } else s.touch(o.a);
          expect(s.size).toBeLessThanOrEqual(cap);
          for (const [a, n] of pins) if (n > 0) expect(s.has(a)).toBe(true);
        }
      }),
    );
  });
});
