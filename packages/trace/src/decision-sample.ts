import type { JudgedDecision } from './decision-context.js';

/** Decisions an audit sample shows (the analyzer keeps up to twice as many between levels). */
export const AUDIT_CAPACITY = 8;

/**
 * A decision's sampling level (see the analyzer's level sampling): the trailing zero bits of a
 * 32-bit integer hash of `seq` (murmur3's finaliser); 32 for a zero hash.
 */
export function sampleLevel(seq: number): number {
  let h = seq | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return h === 0 ? 32 : 31 - Math.clz32(h & -h);
}

/** Up to {@link AUDIT_CAPACITY} of `sampled`, evenly spaced in decision order. */
export function spreadSample(sampled: readonly JudgedDecision[]): JudgedDecision[] {
  const sorted = [...sampled].sort((a, b) => a.ctx.seq - b.ctx.seq);
  if (sorted.length <= AUDIT_CAPACITY) return sorted;
  const step = sorted.length / AUDIT_CAPACITY;
  const out: JudgedDecision[] = [];
  for (let k = 0; k < AUDIT_CAPACITY; k++) out.push(sorted[Math.floor(k * step)]);
  return out;
}
