/** A 32-bit mix of a non-negative integer hash below 2^53: a table's probe start, and a quick filter. */
export function mixOf(hash: number): number {
  let h = (hash >>> 0) ^ ((hash / 4294967296) >>> 0);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return h ^ (h >>> 16);
}
