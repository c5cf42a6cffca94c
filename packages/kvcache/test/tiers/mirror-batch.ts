import type { MirrorBatch } from '../../src/index.js';

/** A mirror batch over plain request records, in the order given. */
export function batchOf(reqs: { owner: number; hashes: ArrayLike<number>; inputTokens?: number; key?: number }[]): MirrorBatch {
  return {
    count: reqs.length,
    owners: reqs.map((r) => r.owner),
    inputTokens: reqs.map((r) => r.inputTokens ?? 0),
    keys: reqs.map((r, i) => r.key ?? i),
    hashCounts: reqs.map((r) => r.hashes.length),
    hashesOf: (i) => reqs[i].hashes,
  };
}
