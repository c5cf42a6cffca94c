import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOCK_FIELDS, BlockStore, REF } from '../src/block-store.js';

// The free ring against a plain array model of the LRU free list: take the oldest, free to the
// back, undo a take to the front, revive a free block out of the middle.
type Op = { t: 'take' } | { t: 'free'; k: number } | { t: 'undo' } | { t: 'revive'; k: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ t: 'take' as const }),
  fc.record({ t: fc.constant('free' as const), k: fc.nat() }),
  fc.constant({ t: 'undo' as const }),
  fc.record({ t: fc.constant('revive' as const), k: fc.nat() }),
);

/** Each block carries a hash of its own, -1 for every third one. */
const hashOf = (id: number) => (id % 3 === 0 ? -1 : id * 4294967296 + 12345);

function freeOrder(store: BlockStore): number[] {
  const out: number[] = [];
  store.forEachFree((id) => out.push(id));
  return out;
}

describe('BlockStore free ring', () => {
  it('keeps LRU free order like a list, through revivals and compactions', () => {
    fc.assert(
      // initialBlocks 1 grows the records and the ring as blocks are first taken; 256 never does here.
      fc.property(fc.integer({ min: 1, max: 12 }), fc.constantFrom(1, 256), fc.array(opArb, { maxLength: 400 }), (total, initialBlocks, ops) => {
        const store = new BlockStore(total, initialBlocks);
        // The hash each free block carried when it was freed (none at first).
        const freedWith = new Map<number, number>();
        const model: number[] = Array.from({ length: total }, (_, i) => i);
        const held: number[] = [];
        let lastTaken = -1;
        for (const op of ops) {
          if (op.t === 'take' && model.length > 0) {
            const id = store.popFront();
            expect(id).toBe(model.shift());
            expect(store.poppedHash).toBe(freedWith.get(id) ?? -1);
            store.rec[id * BLOCK_FIELDS + REF] = 1;
            held.push(id);
            lastTaken = id;
          } else if (op.t === 'undo' && lastTaken >= 0 && held.at(-1) === lastTaken) {
            held.pop();
            store.rec[lastTaken * BLOCK_FIELDS + REF] = 0;
            store.pushFront(lastTaken);
            model.unshift(lastTaken);
            lastTaken = -1;
          } else if (op.t === 'free' && held.length > 0) {
            const [id] = held.splice(op.k % held.length, 1);
            store.rec[id * BLOCK_FIELDS + REF] = 0;
            // A block may be freed with a new hash (registered while held).
            store.setHash(id, hashOf(id));
            freedWith.set(id, hashOf(id));
            store.pushBack(id);
            model.push(id);
            lastTaken = -1;
          } else if (op.t === 'revive' && model.length > 0) {
            const [id] = model.splice(op.k % model.length, 1);
            store.revive(id);
            store.rec[id * BLOCK_FIELDS + REF] = 1;
            held.push(id);
            lastTaken = -1;
          }
          expect(freeOrder(store)).toEqual(model);
          expect(store.countStale()).toBe(store.staleEntries);
        }
      }),
    );
  });

  it('stores 52-bit hashes exactly and -1 for none', () => {
    const store = new BlockStore(3);
    expect(store.hashOf(0)).toBe(-1);
    store.setHash(0, 2 ** 52 - 1);
    store.setHash(1, 0);
    store.setHash(2, 4294967296 * 5 + 4294967295);
    expect(store.hashOf(0)).toBe(2 ** 52 - 1);
    expect(store.hashOf(1)).toBe(0);
    expect(store.hashOf(2)).toBe(4294967296 * 5 + 4294967295);
    store.setHash(0, -1);
    expect(store.hashOf(0)).toBe(-1);
  });
});
