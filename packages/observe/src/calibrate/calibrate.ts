import { CalibrationInputError } from './errors.js';
import { compareGoodput, realRuntimeSec } from './goodput.js';
import { type ItlRow, itlRowsByRequest, readItlRows } from './itl-data.js';
import { type HitRateComparison, compareHitRate, readSimCacheHitRate } from './kv-hit-rate.js';
import { type ObservedTrace, readObservedTrace } from './observed-trace.js';
import { type CalibrationPairs, pairRequests, simById } from './pairing.js';
import { type CalibrationReport, buildReport } from './report.js';
import { type SimRequestResult, readSimResults } from './sim-results.js';
import { type SloFlagTargets, mergeSloTargets } from './slo-targets.js';

/** Parsed inputs: what the files hold. */
export interface CalibrationInputs {
  trace: ObservedTrace;
  simResults: readonly SimRequestResult[];
  /** Chunk timings (`--itl-data`); the ITL metric is graded only with them. */
  itlRows?: readonly ItlRow[];
  /** Whether a simulator metrics file was given, and its `cache_hit_rate` if it has one. */
  simMetrics?: { cacheHitRate: number | undefined };
  /** Names for messages: the files the trace and results came from. */
  sources?: { traceData?: string; simResults?: string; simMetrics?: string };
}

export interface CalibrateOptions {
  /** Records with smaller ids are skipped; undefined or -1: the header's `warm_up_requests`. */
  warmUpRequests?: number;
  /** Added to simulated latencies; undefined or -1: the header's `network.measured_rtt_ms` × 1000. */
  networkRttUs?: number;
  /** Transfer time of prompt and answer at 4 bytes a token; 0 (the default): none. */
  bandwidthMbps?: number;
  /** Band for the KV hit-rate verdict, in percentage points (default 5). */
  hitRateTolerancePp?: number;
  /** TTFT MAPE threshold (a fraction) for the tolerance verdict (default 0.15). */
  ttftMapeThreshold?: number;
  /** Goodput targets in ms per class; they override the header's, dimension by dimension. */
  slo?: SloFlagTargets;
}

export interface CalibrationOutcome {
  report: CalibrationReport;
  pairs: CalibrationPairs;
  /** The warm-up and RTT actually used, after the header fallbacks. */
  warmUpRequests: number;
  networkRttUs: number;
  /** Things the report leaves out and why, for the log. */
  warnings: string[];
}

/**
 * Grades a replay against the recorded run: pairs requests by id, compares TTFT, E2E and (with
 * chunk timings) ITL, and adds the goodput, KV hit-rate and TTFT tolerance verdicts. Pure given
 * its inputs; throws a CalibrationInputError when nothing can be graded.
 */
export function calibrate(inputs: CalibrationInputs, options: CalibrateOptions = {}): CalibrationOutcome {
  const { header, records } = inputs.trace;
  const traceName = inputs.sources?.traceData ?? 'trace data';
  const simName = inputs.sources?.simResults ?? 'sim results';
  const warmUp = options.warmUpRequests === undefined || options.warmUpRequests === -1 ? header.warmUpRequests : options.warmUpRequests;
  // BLIS truncates the header's milliseconds to whole µs.
  const rtt = options.networkRttUs === undefined || options.networkRttUs === -1 ? (header.measuredRttMs !== undefined && header.measuredRttMs > 0 ? Math.trunc(header.measuredRttMs * 1000) : 0) : options.networkRttUs;
  const warnings: string[] = [];

  if (inputs.simResults.length === 0) throw new CalibrationInputError([{ file: simName, expected: 'at least one simulated request', found: 'none' }]);
  const graded = records.filter((r) => r.requestId >= warmUp);
  if (!graded.some((r) => r.status === 'ok'))
    throw new CalibrationInputError([{ file: traceName, field: 'status', expected: `at least one request with status ok${warmUp > 0 ? ` past the ${warmUp} warm-up requests` : ''}`, found: graded.length === 0 ? 'no requests' : 'none' }]);

  const pairs = pairRequests(records, inputs.simResults, { warmUpRequests: warmUp, networkRttUs: rtt, bandwidthMbps: options.bandwidthMbps ?? 0 }, inputs.itlRows);
  if (pairs.matched === 0)
    throw new CalibrationInputError([{ file: simName, field: 'request_id', expected: `ids matching the request_id column of ${traceName} (both number requests the same way)`, found: 'no id in common' }]);
  if (pairs.ttft.real.length === 0)
    throw new CalibrationInputError([{ file: traceName, field: 'first_chunk_time_us', expected: 'a non-negative latency (chunk times at or after send_time_us) for at least one matched request', found: `negative latencies on all ${pairs.matched} matched requests` }]);
  if (pairs.itlDropped > 0) warnings.push(`ITL dropped for ${pairs.itlDropped} request(s) whose chunk gaps were all negative (clock skew): ${pairs.itlDroppedIds.slice(0, 10).join(', ')}${pairs.itlDroppedIds.length > 10 ? ', ...' : ''}`);

  const sims = simById(inputs.simResults);
  const matchedIds = new Set<number>();
  for (const r of records) if (r.requestId >= warmUp && sims.has(r.requestId)) matchedIds.add(r.requestId);
  const targets = mergeSloTargets(options.slo ?? {}, header.goodputSloTargets);
  const goodput = compareGoodput({
    records,
    sims,
    matchedIds,
    itlByRequest: itlRowsByRequest(inputs.itlRows ?? []),
    targets,
    runtimeSec: realRuntimeSec(records, matchedIds),
  });
  if (goodput?.skipped_itl === true) warnings.push('goodput: some requests had no ITL on the real or simulated side and fail their ITL target; TTFT and E2E are judged as usual');

  let hitRate: HitRateComparison | undefined;
  const observed = header.observedKvMetrics;
  if (observed !== undefined) {
    if (inputs.simMetrics === undefined) warnings.push(`the trace header has an observed KV hit rate (${observed.hitRate}, source ${observed.source}) but no --sim-metrics was given: hit-rate comparison skipped`);
    else if (inputs.simMetrics.cacheHitRate === undefined) warnings.push(`${inputs.sources?.simMetrics ?? 'sim metrics'} has no cache_hit_rate: hit-rate comparison skipped`);
    else hitRate = compareHitRate(observed.hitRate, inputs.simMetrics.cacheHitRate, options.hitRateTolerancePp ?? 5, observed.source);
  } else if (inputs.simMetrics !== undefined) warnings.push('the trace header has no observed_kv_metrics (record with `blis observe --scrape-kv-metrics`): hit-rate comparison skipped');

  const report = buildReport(pairs, { goodput, hitRate, ttftMapeThreshold: options.ttftMapeThreshold ?? 0.15 });
  return { report, pairs, warmUpRequests: warmUp, networkRttUs: rtt, warnings };
}

/** The files calibrate reads. */
export interface CalibrationFiles {
  traceHeader: string;
  traceData: string;
  simResults: string;
  itlData?: string;
  simMetrics?: string;
}

/** Reads and validates every input file; errors name the file, line and field. */
export function readCalibrationInputs(files: CalibrationFiles): CalibrationInputs {
  return {
    trace: readObservedTrace(files.traceHeader, files.traceData),
    simResults: readSimResults(files.simResults),
    itlRows: files.itlData === undefined ? undefined : readItlRows(files.itlData),
    simMetrics: files.simMetrics === undefined ? undefined : { cacheHitRate: readSimCacheHitRate(files.simMetrics) },
    sources: { traceData: files.traceData, simResults: files.simResults, simMetrics: files.simMetrics },
  };
}
