import { chainHash, hashString } from '@blis/kvcache';

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
 */
export function promptBlockHashes(p: PromptIdentity, blockSize: number): Float64Array {
  const n = Math.floor(p.inputTokens / blockSize);
  const out = new Float64Array(n);
  const shared = p.prefixGroup !== '' ? Math.min(n, Math.floor(p.prefixLength / blockSize)) : 0;
  const groupKey = shared > 0 ? hashString(`group:${p.prefixGroup}`) : 0;
  const restKey = hashString(p.sessionId !== '' ? `session:${p.sessionId}:${p.prefixGroup}` : `request:${p.id}`);
  let h = 0;
  for (let i = 0; i < n; i++) {
    h = chainHash(h, i < shared ? chainHash(groupKey, i) : chainHash(restKey, i));
    out[i] = h;
  }
  return out;
}

/**
 * Re-blocks Mooncake hash ids (one per 512-token block) to `blockSize`-token blocks: sub-block j
 * of an id takes its content from (id, j), so requests that share ids share exactly those blocks.
 */
export function mooncakeBlockHashes(hashIds: readonly number[], inputTokens: number, blockSize: number, requestId: string, sourceBlock = 512): Float64Array {
  const n = Math.floor(inputTokens / blockSize);
  const out = new Float64Array(n);
  const idBase = hashString('mooncake');
  const ownKey = hashString(`request:${requestId}`);
  let h = 0;
  for (let i = 0; i < n; i++) {
    const tokenStart = i * blockSize;
    const src = Math.floor(tokenStart / sourceBlock);
    const sub = Math.floor((tokenStart % sourceBlock) / blockSize);
    // Blocks past the listed ids (a trailing partial 512-block) belong to this request alone.
    const key = src < hashIds.length ? chainHash(chainHash(idBase, hashIds[src]), sub) : chainHash(ownKey, i);
    h = chainHash(h, key);
    out[i] = h;
  }
  return out;
}
