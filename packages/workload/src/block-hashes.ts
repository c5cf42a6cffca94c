import { chainHash, chainStreamHashes, hashString } from '@blis/kvcache';

/** What decides a request's prompt content, as far as the KV cache can tell. */
export interface PromptIdentity {
  id: string;
  inputTokens: number;
  prefixGroup: string;
  prefixLength: number;
  sessionId: string;
}

/**
 * Hierarchical hashes of a prompt's full blocks. Blocks wholly inside a shared prefix take their
 * content from the prefix group; the rest come from the session's content stream (so each round
 * of a session extends the previous one) or, outside sessions, from the request itself. Only
 * the fields a TraceV2 row carries are used, so a converted and replayed workload hashes the same.
 *
 * `extraTokens` extends the hashes over that many tokens past the prompt (see
 * {@link requestBlockHashes}): the content stream is indexed by position, so a session's
 * generated tokens hash like the same positions of its next round's prompt.
 */
export function promptBlockHashes(p: PromptIdentity, blockSize: number, extraTokens = 0): Float64Array {
  const n = Math.floor((p.inputTokens + extraTokens) / blockSize);
  const out = hashArray(n);
  const shared = groupBlocks(p, n, blockSize);
  const groupKey = shared > 0 ? hashString(`group:${p.prefixGroup}`) : 0;
  const restKey = hashString(p.sessionId !== '' ? `session:${p.sessionId}:${p.prefixGroup}` : `request:${p.id}`);
  // Block i's content key is chainHash(groupKey, i) inside the group, chainHash(restKey, i) past it.
  const h = chainStreamHashes(out, 0, shared, 0, groupKey, 0);
  chainStreamHashes(out, shared, n - shared, h, restKey, shared);
  return out;
}

/** Leading blocks of `n` wholly inside the prompt's shared prefix group. */
function groupBlocks(p: PromptIdentity, n: number, blockSize: number): number {
  return p.prefixGroup !== '' ? Math.min(n, Math.floor(p.prefixLength / blockSize)) : 0;
}

/**
 * How many of {@link promptBlockHashes}' blocks other requests may carry too (RequestSpec's
 * `sharedPrefixBlocks`): all of a session round's (its stream continues in the next round), else
 * those of its prefix group. The rest are keyed by the request's id, so this holds only where
 * the workload's ids are unique: its callers name their own requests.
 */
export function sharedPromptBlocks(p: PromptIdentity, blockSize: number): number {
  const n = Math.floor(p.inputTokens / blockSize);
  return p.sessionId !== '' ? n : groupBlocks(p, n, blockSize);
}

/** A request's hashes: its prompt's full blocks, and those of every block its KV fills. */
export interface RequestBlockHashes {
  blockHashes: Float64Array;
  /** Absent outside sessions: nobody could hit a block of a one-off answer. */
  kvBlockHashes?: Float64Array;
}

/**
 * The block hashes of a request. A session round (non-empty `sessionId`) also gets hashes over
 * the generated tokens whose KV it stores (all but the last: `max(output, 1) - 1`), so the
 * engine registers the blocks its answer fills, as vLLM caches every full block; the next round,
 * whose prompt carries this round's prompt and answer, then hits them. `blockHashes` is a view
 * of the leading prompt part, not a copy.
 */
export function requestBlockHashes(p: PromptIdentity, outputTokens: number, blockSize: number): RequestBlockHashes {
  if (p.sessionId === '') return { blockHashes: promptBlockHashes(p, blockSize) };
  const kv = promptBlockHashes(p, blockSize, Math.max(outputTokens, 1) - 1);
  return { blockHashes: kv.subarray(0, Math.floor(p.inputTokens / blockSize)), kvBlockHashes: kv };
}

/**
 * How many of {@link mooncakeBlockHashes}' blocks lie inside the listed ids, which other
 * requests may list too; the rest are the request's own (RequestSpec's `sharedPrefixBlocks`).
 */
export function mooncakeSharedBlocks(hashIds: readonly number[], inputTokens: number, blockSize: number, sourceBlock = 512): number {
  const n = Math.floor(inputTokens / blockSize);
  // Block i is the request's own once it reaches past the listed ids (see mooncakeBlockHashes).
  let i = 0;
  while (i < n && Math.floor((i * blockSize + blockSize - 1) / sourceBlock) < hashIds.length) i++;
  return i;
}

/**
 * Re-blocks Mooncake hash ids (one per 512-token block) to `blockSize`-token blocks. A block's
 * content is named by the source ids it overlaps and the offset it starts at, so requests that
 * share leading ids share exactly the blocks lying inside those ids, whether or not `blockSize`
 * divides 512 (a block straddling two ids depends on both).
 */
export function mooncakeBlockHashes(hashIds: readonly number[], inputTokens: number, blockSize: number, requestId: string, sourceBlock = 512): Float64Array {
  const n = Math.floor(inputTokens / blockSize);
  const out = hashArray(n);
  const idBase = hashString('mooncake');
  const ownKey = hashString(`request:${requestId}`);
  // Blocks reaching past the listed ids, all those from `listed` on, belong to this request alone.
  const listed = mooncakeSharedBlocks(hashIds, inputTokens, blockSize, sourceBlock);
  let h = 0;
  for (let i = 0; i < listed; i++) {
    const tokenStart = i * blockSize;
    const first = Math.floor(tokenStart / sourceBlock);
    const last = Math.floor((tokenStart + blockSize - 1) / sourceBlock);
    let key = chainHash(idBase, tokenStart % sourceBlock);
    for (let s = first; s <= last; s++) key = chainHash(key, hashIds[s]);
    h = chainHash(h, key);
    out[i] = h;
  }
  chainStreamHashes(out, listed, n - listed, h, ownKey, listed);
  return out;
}

/** Doubles per slab: 64 KiB, a few hundred prompts' hashes. */
const SLAB_DOUBLES = 8192;
let slab = new ArrayBuffer(0);
let slabUsed = 0;

/**
 * A zeroed Float64Array of `n` hashes, carved as a view from a shared slab. A typed array over
 * 64 bytes gets an off-heap buffer of its own, whose allocation and collection cost more than
 * hashing a prompt; every request needs one. A slab is freed once no request still holds a
 * view on it (requests come and go roughly in order, so slabs do not linger).
 */
function hashArray(n: number): Float64Array {
  if (n > SLAB_DOUBLES / 4) return new Float64Array(n);
  if (slabUsed + n > SLAB_DOUBLES || slab.byteLength === 0) {
    slab = new ArrayBuffer(SLAB_DOUBLES * 8);
    slabUsed = 0;
  }
  const out = new Float64Array(slab, slabUsed * 8, n);
  slabUsed += n;
  return out;
}
