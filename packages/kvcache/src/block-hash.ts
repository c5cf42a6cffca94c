/**
 * Hierarchical block hashes. A block's hash mixes its predecessor's hash with a key for the
 * block's own content, so two prompts agree on block i only if they agree on blocks 0..i.
 * Hashes are non-negative integers below 2^52, safe as JS numbers and as Map keys.
 */

/** Hash of the (virtual) block before the first one. */
export const ROOT_HASH = 0x1505;

const M1 = 0x85ebca6b;
const M2 = 0xc2b2ae35;

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, M1);
  h ^= h >>> 13;
  h = Math.imul(h, M2);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Chains `contentKey` (any integer below 2^53) onto `prevHash`. */
export function chainHash(prevHash: number, contentKey: number): number {
  const pLo = prevHash >>> 0;
  const pHi = Math.floor(prevHash / 4294967296) >>> 0;
  const kLo = contentKey >>> 0;
  const kHi = Math.floor(contentKey / 4294967296) >>> 0;
  const a = fmix32(pLo ^ Math.imul(kLo, 0x9e3779b1) ^ fmix32(pHi + 0x27d4eb2f));
  const b = fmix32(pHi ^ Math.imul(kHi + 0x165667b1, 0x85ebca77) ^ fmix32(a ^ kLo));
  // 20 high bits from b, 32 low bits from a: 52 bits in all.
  return (b & 0xfffff) * 4294967296 + a;
}

// chainHash's terms that are constant when the previous hash is a 32-bit stream key (high half
// 0) and the content key a block index (high half 0): see chainStreamHashes.
const STREAM_HI_MIX = fmix32(0x27d4eb2f);
const INDEX_HI_MUL = Math.imul(0x165667b1, 0x85ebca77);

/**
 * Chains the content keys of blocks `first` to `first + count - 1` of a content stream onto
 * `prevHash`, writing the `count` hashes into `out` from `offset`; returns the last hash (or
 * `prevHash` when `count` is 0). The same values as `h = chainHash(h, contentKey(streamKey, j))`
 * block by block, for a 32-bit `streamKey` (as hashString gives) and block indexes below 2^32:
 * the content key's constant terms are mixed once, and the chain is carried as two 32-bit
 * halves, so no hash is split with a float division. Every prompt's blocks are hashed here.
 */
export function chainStreamHashes(out: Float64Array | number[], offset: number, count: number, prevHash: number, streamKey: number, first: number): number {
  const keyMix = (streamKey >>> 0) ^ STREAM_HI_MIX;
  let lo = prevHash >>> 0;
  let hi = Math.floor(prevHash / 4294967296) >>> 0;
  for (let i = 0; i < count; i++) {
    const j = first + i;
    // contentKey(streamKey, j): low half ka, high half kb.
    const ka = fmix32(keyMix ^ Math.imul(j, 0x9e3779b1));
    const kb = fmix32(INDEX_HI_MUL ^ fmix32(ka ^ j)) & 0xfffff;
    // chainHash(hi·2^32 + lo, kb·2^32 + ka).
    const a = fmix32(lo ^ Math.imul(ka, 0x9e3779b1) ^ fmix32(hi + 0x27d4eb2f));
    hi = fmix32(hi ^ Math.imul(kb + 0x165667b1, 0x85ebca77) ^ fmix32(a ^ ka)) & 0xfffff;
    lo = a;
    out[offset + i] = hi * 4294967296 + lo;
  }
  return hi * 4294967296 + lo;
}

/** 32-bit FNV-1a of a string, for turning names (prefix groups, sessions) into content keys. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Content key for block `blockIndex` of a named content stream (a prefix group, a session, a request). */
export function contentKey(streamKey: number, blockIndex: number): number {
  return chainHash(streamKey >>> 0, blockIndex);
}

/**
 * Builds the hierarchical hashes of `count` blocks whose content keys come from `keyOf`.
 * Writes into `out` from `offset` and continues the chain from `prevHash`.
 */
export function fillBlockHashes(
  out: Float64Array | number[],
  offset: number,
  count: number,
  prevHash: number,
  keyOf: (i: number) => number,
): number {
  let h = prevHash;
  for (let i = 0; i < count; i++) {
    h = chainHash(h, keyOf(i));
    out[offset + i] = h;
  }
  return h;
}
