import type { RequestSource, RequestSpec } from '@blis/engine';

/**
 * An open-loop request stream as generated: each request with what `peekArrivalUs` said before
 * it. The requests' hash arrays live in one buffer (`hashes`; request i's prompt hashes at
 * `spans[4i]`, `spans[4i+1]` long, its KV hashes at `spans[4i+2]`, -1 long when it has none), so
 * that a replay copies them with one allocation.
 */
export interface RecordedStream {
  peeks: Float64Array;
  requests: RequestSpec[];
  hashes: Float64Array;
  spans: Int32Array;
  /** Rough bytes held (the memo's bound). */
  bytes: number;
}

/**
 * Reads `source` to its end (an open-loop stream, so nothing it yields depends on the run);
 * undefined when a request's hashes are not a Float64Array (a replay would change their type).
 */
export function recordStream(source: RequestSource): RecordedStream | undefined {
  const peeks: number[] = [];
  const requests: RequestSpec[] = [];
  let total = 0;
  for (;;) {
    const t = source.peekArrivalUs();
    if (t === Number.POSITIVE_INFINITY) break;
    const r = source.next();
    if (r === undefined) break;
    if (!(r.blockHashes instanceof Float64Array) || (r.kvBlockHashes !== undefined && !(r.kvBlockHashes instanceof Float64Array))) return undefined;
    peeks.push(t);
    requests.push(r);
    total += r.blockHashes.length + (r.kvBlockHashes?.length ?? 0);
  }
  const hashes = new Float64Array(total);
  const spans = new Int32Array(4 * requests.length);
  let at = 0;
  let bytes = 0;
  requests.forEach((r, i) => {
    const prompt = r.blockHashes as Float64Array;
    const kv = r.kvBlockHashes as Float64Array | undefined;
    if (kv !== undefined) {
      hashes.set(kv, at);
      spans[4 * i + 2] = at;
      spans[4 * i + 3] = kv.length;
      at += kv.length;
    } else spans[4 * i + 3] = -1;
    // A prompt's hashes that are the leading part of its KV's (one buffer) stay that part.
    if (kv !== undefined && prompt.buffer === kv.buffer && prompt.byteOffset === kv.byteOffset) spans[4 * i] = spans[4 * i + 2];
    else {
      hashes.set(prompt, at);
      spans[4 * i] = at;
      at += prompt.length;
    }
    spans[4 * i + 1] = prompt.length;
    // The object, its strings, the spans; the hashes are counted once below.
    bytes += 400 + 16 + 2 * (r.id.length + r.clientId.length + r.tenantId.length + r.sloClass.length + r.sessionId.length + r.prefixGroup.length);
  });
  const kept = hashes.subarray(0, at).slice();
  return { peeks: Float64Array.from(peeks), requests, hashes: kept, spans, bytes: bytes + 8 * (kept.length + peeks.length) };
}

/**
 * Replays a recorded stream. Each request handed out is a copy, its hash arrays views of this
 * replay's own copy of the hashes, so a run that changes what it was given leaves the recording,
 * and the next run, as they were.
 */
export class ReplaySource implements RequestSource {
  private i = 0;
  private readonly hashes: Float64Array;

  constructor(private readonly stream: RecordedStream) {
    this.hashes = stream.hashes.slice();
  }

  peekArrivalUs(): number {
    return this.i < this.stream.peeks.length ? this.stream.peeks[this.i] : Number.POSITIVE_INFINITY;
  }

  next(): RequestSpec | undefined {
    const i = this.i;
    if (i >= this.stream.requests.length) return undefined;
    this.i++;
    const r = this.stream.requests[i];
    const s = this.stream.spans;
    const copy: RequestSpec = { ...r, blockHashes: this.hashes.subarray(s[4 * i], s[4 * i] + s[4 * i + 1]) };
    if (s[4 * i + 3] >= 0) copy.kvBlockHashes = this.hashes.subarray(s[4 * i + 2], s[4 * i + 2] + s[4 * i + 3]);
    if (r.modalities !== undefined) copy.modalities = structuredClone(r.modalities);
    return copy;
  }
}
