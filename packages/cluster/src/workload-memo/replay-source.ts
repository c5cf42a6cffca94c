import type { RequestSource, RequestSpec } from '@blis/engine';

/** An open-loop request stream as generated: each request with what `peekArrivalUs` said before it. */
export interface RecordedStream {
  peeks: Float64Array;
  requests: RequestSpec[];
  /** Rough bytes held (the memo's bound). */
  bytes: number;
}

/** Reads `source` to its end (an open-loop stream, so nothing it yields depends on the run). */
export function recordStream(source: RequestSource): RecordedStream {
  const peeks: number[] = [];
  const requests: RequestSpec[] = [];
  let bytes = 0;
  for (;;) {
    const t = source.peekArrivalUs();
    if (t === Number.POSITIVE_INFINITY) break;
    const r = source.next();
    if (r === undefined) break;
    peeks.push(t);
    requests.push(r);
    bytes += requestBytes(r);
  }
  return { peeks: Float64Array.from(peeks), requests, bytes: bytes + peeks.length * 8 };
}

/** Object, strings and hash arrays: an over-estimate of what V8 keeps for one request. */
function requestBytes(r: RequestSpec): number {
  const hashes = r.kvBlockHashes !== undefined ? r.kvBlockHashes.length : r.blockHashes.length;
  return 400 + 8 * hashes + 2 * (r.id.length + r.clientId.length + r.tenantId.length + r.sloClass.length + r.sessionId.length + r.prefixGroup.length);
}

/**
 * Replays a recorded stream. Each request handed out is a copy (its hash arrays too), so a run
 * that changes what it was given leaves the recording, and the next run, as they were.
 */
export class ReplaySource implements RequestSource {
  private i = 0;
  constructor(private readonly stream: RecordedStream) {}

  peekArrivalUs(): number {
    return this.i < this.stream.peeks.length ? this.stream.peeks[this.i] : Number.POSITIVE_INFINITY;
  }

  next(): RequestSpec | undefined {
    if (this.i >= this.stream.requests.length) return undefined;
    return copyRequest(this.stream.requests[this.i++]);
  }
}

function copyRequest(r: RequestSpec): RequestSpec {
  const copy: RequestSpec = { ...r };
  const kv = r.kvBlockHashes;
  if (kv !== undefined) {
    const kvCopy = copyHashes(kv);
    copy.kvBlockHashes = kvCopy;
    // A prompt's hashes are the leading part of the KV's (one buffer): keep them one.
    copy.blockHashes = sharesBuffer(r.blockHashes, kv) && kvCopy instanceof Float64Array ? kvCopy.subarray(0, r.blockHashes.length) : copyHashes(r.blockHashes);
  } else {
    copy.blockHashes = copyHashes(r.blockHashes);
  }
  if (r.modalities !== undefined) copy.modalities = structuredClone(r.modalities);
  return copy;
}

function copyHashes(h: ArrayLike<number>): ArrayLike<number> {
  return ArrayBuffer.isView(h) ? (h as Float64Array).slice() : Array.from(h);
}

function sharesBuffer(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return ArrayBuffer.isView(a) && ArrayBuffer.isView(b) && a.buffer === b.buffer && a.byteOffset === b.byteOffset;
}
