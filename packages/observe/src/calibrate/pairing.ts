import { type ItlRow, itlRowsByRequest, tokenChunkRows } from './itl-data.js';
import type { ObservedTraceRow } from './observed-trace.js';
import type { SimRequestResult } from './sim-results.js';

/** How simulated (server-side) latencies are moved to the client's point of view. */
export interface PairingOptions {
  /** Records with a smaller request id are skipped. */
  warmUpRequests: number;
  /** Added to both simulated TTFT and E2E. */
  networkRttUs: number;
  /** Prompt upload and answer download at 4 bytes a token; 0 or less: no transfer time. */
  bandwidthMbps: number;
}

/** Matched real and simulated values of one metric, index by index. */
export interface LatencyPair {
  real: number[];
  sim: number[];
}

export interface BreakdownPairs {
  ttft: LatencyPair;
  e2e: LatencyPair;
}

export interface CalibrationPairs {
  ttft: LatencyPair;
  e2e: LatencyPair;
  /** Filled only when ITL rows are given. */
  itl: LatencyPair;
  /** By the simulated request's SLO class (non-empty ones only). */
  bySlo: Map<string, BreakdownPairs>;
  /** By the simulated request's model (non-empty ones only). */
  byModel: Map<string, BreakdownPairs>;
  tokenMismatches: number;
  excludedWarmUp: number;
  /** Records whose id has a simulated result, including those dropped for negative latency. */
  matched: number;
  /** Records with no simulated result, plus matched ones with a negative real latency. */
  unmatchedReal: number;
  unmatchedSim: number;
  /** Requests left out of ITL because every chunk delta was negative. */
  itlDropped: number;
  /** Ids of the records the ITL metric dropped, for the log. */
  itlDroppedIds: number[];
}

/** µs to move `tokens` tokens (4 bytes each) at `mbps` megabits per second. */
export function transferDelayUs(mbps: number, tokens: number): number {
  if (mbps <= 0) return 0;
  return ((tokens * 4 * 8) / (mbps * 1e6)) * 1e6;
}

/** The last result per id, as a lookup (a later duplicate wins). */
export function simById(results: readonly SimRequestResult[]): Map<number, SimRequestResult> {
  const m = new Map<number, SimRequestResult>();
  for (const r of results) m.set(r.requestId, r);
  return m;
}

function emptyBreakdown(): BreakdownPairs {
  return { ttft: { real: [], sim: [] }, e2e: { real: [], sim: [] } };
}

function addBreakdown(map: Map<string, BreakdownPairs>, key: string, ttft: [number, number], e2e: [number, number]): void {
  if (key === '') return;
  let b = map.get(key);
  if (b === undefined) map.set(key, (b = emptyBreakdown()));
  b.ttft.real.push(ttft[0]);
  b.ttft.sim.push(ttft[1]);
  b.e2e.real.push(e2e[0]);
  b.e2e.sim.push(e2e[1]);
}

/**
 * Pairs each recorded request (after warm-up) with its simulated twin by id. The real side is
 * the client's clock (send to first and last chunk); the simulated side gets the network RTT and
 * transfer times added. Token-count mismatches are counted but still paired.
 */
export function pairRequests(records: readonly ObservedTraceRow[], results: readonly SimRequestResult[], opts: PairingOptions, itlRows?: readonly ItlRow[]): CalibrationPairs {
  const sims = simById(results);
  const pairs: CalibrationPairs = {
    ttft: { real: [], sim: [] },
    e2e: { real: [], sim: [] },
    itl: { real: [], sim: [] },
    bySlo: new Map(),
    byModel: new Map(),
    tokenMismatches: 0,
    excludedWarmUp: 0,
    matched: 0,
    unmatchedReal: 0,
    unmatchedSim: 0,
    itlDropped: 0,
    itlDroppedIds: [],
  };
  const matchedIds = new Set<number>();
  for (const rec of records) {
    if (rec.requestId < opts.warmUpRequests) {
      pairs.excludedWarmUp++;
      continue;
    }
    const sim = sims.get(rec.requestId);
    if (sim === undefined) {
      pairs.unmatchedReal++;
      continue;
    }
    matchedIds.add(rec.requestId);
    pairs.matched++;
    // The server's own prompt count includes the chat template, so it is the one to compare.
    const realInput = rec.serverInputTokens > 0 ? rec.serverInputTokens : rec.inputTokens;
    if (realInput !== sim.inputTokens || rec.outputTokens !== sim.outputTokens) pairs.tokenMismatches++;
    const realTtft = rec.firstChunkTimeUs - rec.sendTimeUs;
    const realE2e = rec.lastChunkTimeUs - rec.sendTimeUs;
    // Clock skew or a failed request with no chunks: not a latency to grade against.
    if (realTtft < 0 || realE2e < 0) {
      pairs.unmatchedReal++;
      continue;
    }
    const up = transferDelayUs(opts.bandwidthMbps, sim.inputTokens);
    const down = transferDelayUs(opts.bandwidthMbps, sim.outputTokens);
    const simTtft = sim.ttftUs + opts.networkRttUs + up;
    const simE2e = sim.e2eUs + opts.networkRttUs + up + down;
    pairs.ttft.real.push(realTtft);
    pairs.ttft.sim.push(simTtft);
    pairs.e2e.real.push(realE2e);
    pairs.e2e.sim.push(simE2e);
    addBreakdown(pairs.bySlo, sim.sloClass, [realTtft, simTtft], [realE2e, simE2e]);
    addBreakdown(pairs.byModel, sim.model, [realTtft, simTtft], [realE2e, simE2e]);
  }
  for (const r of results) if (!matchedIds.has(r.requestId)) pairs.unmatchedSim++;
  if (itlRows !== undefined && itlRows.length > 0) pairItl(pairs, records, sims, opts, itlRows);
  return pairs;
}

/**
 * The simulated mean gap between a request's first and last token: the result's own ITL when it
 * has one, else BLIS's even spread of the decode, (E2E − TTFT)/(output − 1). The spread also
 * shares out whatever the simulation adds after the last token (trained-physics' completion
 * overhead), which no token gap contains: 0.8 ms on a 2-token request is an 11% ITL error.
 */
function simItlUs(sim: SimRequestResult): number {
  if (sim.outputTokens <= 1) return 0;
  return sim.itlMeanUs > 0 ? sim.itlMeanUs : (sim.e2eUs - sim.ttftUs) / (sim.outputTokens - 1);
}

/**
 * Real ITL is the mean of the non-negative gaps between a request's token chunks
 * ({@link tokenChunkRows}: a BLIS-written file's usage and role-only chunks are left out);
 * simulated ITL is {@link simItlUs}, server-side with no network. Like BLIS, this covers matched
 * records even when their TTFT/E2E pair was dropped for a negative latency.
 */
function pairItl(pairs: CalibrationPairs, records: readonly ObservedTraceRow[], sims: Map<number, SimRequestResult>, opts: PairingOptions, rows: readonly ItlRow[]): void {
  const byRequest = itlRowsByRequest(rows);
  for (const rec of records) {
    if (rec.requestId < opts.warmUpRequests) continue;
    const sim = sims.get(rec.requestId);
    const listed = byRequest.get(rec.requestId);
    if (sim === undefined || listed === undefined) continue;
    const chunks = tokenChunkRows(listed, rec.outputTokens);
    if (chunks.length < 2) continue;
    let sum = 0;
    let n = 0;
    for (let i = 1; i < chunks.length; i++) {
      const d = chunks[i].timestampUs - chunks[i - 1].timestampUs;
      if (d < 0) continue;
      sum += d;
      n++;
    }
    if (n === 0) {
      pairs.itlDropped++;
      pairs.itlDroppedIds.push(rec.requestId);
      continue;
    }
    pairs.itl.real.push(sum / n);
    pairs.itl.sim.push(simItlUs(sim));
  }
}
