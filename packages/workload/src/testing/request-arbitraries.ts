import type { RequestSource, RequestSpec } from '@blis/engine';
import fc from 'fast-check';
import { requestBlockHashes } from '../block-hashes.js';

/** Options of {@link requestStreamArb}. */
export interface RequestStreamOptions {
  /** Fewest and most requests in a stream. Defaults 1 and 50. */
  minRequests?: number;
  maxRequests?: number;
  /** Largest gap between consecutive arrivals, in µs. Default 200 000 (0.2 s). */
  maxGapUs?: number;
  /** Longest prompt and answer, in tokens. Defaults 2048 and 512. */
  maxInputTokens?: number;
  maxOutputTokens?: number;
  /** KV block size the block hashes are computed for. Default 16 (as the simulator's default). */
  blockSizeTokens?: number;
}

const SLO = ['', 'critical', 'standard', 'sheddable', 'batch', 'background'] as const;

const rowArb = (o: Required<RequestStreamOptions>) =>
  fc.record({
    gapUs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: o.maxGapUs })),
    inputTokens: fc.integer({ min: 1, max: o.maxInputTokens }),
    outputTokens: fc.integer({ min: 1, max: o.maxOutputTokens }),
    clientId: fc.constantFrom('', 'c1', 'c2'),
    tenantId: fc.constantFrom('', 't1', 't2'),
    sloClass: fc.constantFrom(...SLO),
    sessionId: fc.constantFrom('', '', 's1', 's2'),
    prefixGroup: fc.constantFrom('', '', 'g1', 'g2'),
    prefixLength: fc.constantFrom(0, 64, 256),
    streaming: fc.boolean(),
    timeoutUs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 10_000_000 })),
    sloTargetUs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5_000_000 })),
  });

/**
 * A stream of requests as a workload source would emit it: dense indices 0..n-1, arrivals that
 * never decrease (equal arrivals included), ids `r<index>`, and block hashes computed the way
 * the spec and trace readers compute them, so requests in one prefix group or session share
 * leading blocks. Deadlines, when set, are at or after arrival. Feed it to the simulator with
 * {@link arraySource}.
 */
export function requestStreamArb(options: RequestStreamOptions = {}): fc.Arbitrary<RequestSpec[]> {
  const o: Required<RequestStreamOptions> = {
    minRequests: options.minRequests ?? 1,
    maxRequests: options.maxRequests ?? 50,
    maxGapUs: options.maxGapUs ?? 200_000,
    maxInputTokens: options.maxInputTokens ?? 2048,
    maxOutputTokens: options.maxOutputTokens ?? 512,
    blockSizeTokens: options.blockSizeTokens ?? 16,
  };
  return fc.array(rowArb(o), { minLength: o.minRequests, maxLength: o.maxRequests }).map((rows) => {
    let t = 0;
    const rounds = new Map<string, number>();
    return rows.map((r, index): RequestSpec => {
      t += r.gapUs;
      const id = `r${index}`;
      const prefixLength = r.prefixGroup === '' ? 0 : r.prefixLength;
      const roundIndex = r.sessionId === '' ? 0 : (rounds.get(r.sessionId) ?? 0);
      if (r.sessionId !== '') rounds.set(r.sessionId, roundIndex + 1);
      const identity = { id, inputTokens: r.inputTokens, prefixGroup: r.prefixGroup, prefixLength, sessionId: r.sessionId };
      return {
        index,
        id,
        arrivalUs: t,
        inputTokens: r.inputTokens,
        outputTokens: r.outputTokens,
        ...requestBlockHashes(identity, r.outputTokens, o.blockSizeTokens),
        clientId: r.clientId,
        tenantId: r.tenantId,
        sloClass: r.sloClass,
        sessionId: r.sessionId,
        roundIndex,
        prefixGroup: r.prefixGroup,
        prefixLength,
        streaming: r.streaming,
        deadlineUs: r.timeoutUs > 0 ? t + r.timeoutUs : 0,
        sloTargetUs: r.sloTargetUs,
        networkDelayUs: 0,
      };
    });
  });
}

/** A {@link RequestSource} over a fixed array (arrivals must not decrease, as sources promise). */
export function arraySource(requests: readonly RequestSpec[]): RequestSource {
  let i = 0;
  return {
    peekArrivalUs: () => (i < requests.length ? requests[i].arrivalUs : Number.POSITIVE_INFINITY),
    next: () => (i < requests.length ? requests[i++] : undefined),
  };
}

/**
 * Drains a source as a replay without a simulator would: each request completes the moment it
 * arrives, so closed-loop sessions send their next round think time later. Returns every
 * request in emission order.
 */
export function drain(source: RequestSource): RequestSpec[] {
  const out: RequestSpec[] = [];
  for (let r = source.next(); r !== undefined; r = source.next()) {
    out.push(r);
    source.onRequestDone?.(r, r.arrivalUs, 'completed');
  }
  return out;
}
