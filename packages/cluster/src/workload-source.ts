import type { RequestSource } from '@blis/engine';
import {
  createRequestSource,
  detectTraceFormat,
  loadWorkloadSpec,
  openTrace,
  TraceReadError,
  parseWorkloadSpec,
  specFromFlags,
  type LoadedSpec,
  type SloDimTargets,
} from '@blis/workload';
import {
  estimateTraceRecords,
  formatBytes,
  parseThinkTimeDist,
  ClosedLoopTraceSource,
  resolvedTargets,
} from '@blis/workload/internal';
import type { WorkloadSource } from './config-schema.js';
import { RUN_LIMITS } from './limits/run-limits.js';
import { type AdapterRegistryView, checkAdapterReferences } from './lora/adapter-references.js';
import { RunLimitError } from './limits/run-limit-error.js';

/** A step of preparing a run that may take long on a large input, announced so progress can show it. */
export type PreparePhase =
  | { kind: 'read-spec'; path: string }
  | { kind: 'read-trace'; path: string }
  | { kind: 'generate'; clients: number; requests: number | undefined }
  /** Told before the first instance (`built` 0) and after each one. */
  | { kind: 'build-instances'; instances: number; built: number };

export interface OpenWorkloadOptions {
  seed: number;
  blockSizeTokens: number;
  horizonUs?: number;
  /**
   * The SLO class of a generated request whose client names none: the request source's default
   * (`standard`) unless given. BLIS's output files keep such a request's class empty.
   */
  defaultSloClass?: string;
  /** Told before each step that reads or sets up a large input. */
  onPhase?: (phase: PreparePhase) => void;
  /** The LoRA registry a spec's client adapters must be in; unset: not checked. */
  adapters?: AdapterRegistryView;
}

/** A request stream and, when the workload says, how many requests it will inject. */
export interface OpenedWorkload {
  source: RequestSource;
  requests: number | undefined;
  /** Where `requests` came from when the workload does not state it (a trace's size). */
  requestsFrom?: string;
  /** Warnings about the workload as opened (a closed-loop replay of a trace without sessions). */
  warnings?: string[];
  /** The workload's own goodput thresholds: a spec's `goodput_slo_targets`, or a TraceV2 header's. */
  goodputSloTargets?: { from: 'spec' | 'header'; targets: Record<string, SloDimTargets> };
}

/** Turns the `workload` section of a config into a lazy request stream. */
export function openWorkload(w: WorkloadSource, opts: OpenWorkloadOptions): RequestSource {
  return openSizedWorkload(w, opts).source;
}

/**
 * {@link openWorkload} with the number of requests the workload will inject, known once a spec
 * is read: the memory estimate counts them before anything else is allocated.
 */
export function openSizedWorkload(w: WorkloadSource, opts: OpenWorkloadOptions): OpenedWorkload {
  switch (w.kind) {
    case 'synthetic': {
      const spec = specFromFlags({ ...w, seed: opts.seed, horizonUs: opts.horizonUs });
      return { source: createRequestSource(spec, { blockSizeTokens: opts.blockSizeTokens, defaultSloClass: opts.defaultSloClass }), requests: w.numRequests };
    }
    case 'spec': {
      const spec = readSpec(w, opts);
      const requests = specRequests(w, spec);
      opts.onPhase?.({ kind: 'generate', clients: spec.clients.length, requests });
      const targets = resolvedTargets(spec.goodput_slo_targets);
      return {
        source: createRequestSource(spec, { blockSizeTokens: opts.blockSizeTokens, maxRequests: w.numRequests, seed: w.seed, timeoutUs: w.timeoutUs, horizonUs: opts.horizonUs, defaultSloClass: opts.defaultSloClass, ...(w.path !== undefined ? { file: w.path } : {}) }),
        requests,
        ...(targets !== undefined ? { goodputSloTargets: { from: 'spec' as const, targets } } : {}),
      };
    }
    case 'trace': {
      opts.onPhase?.({ kind: 'read-trace', path: w.path });
      if (w.sessionMode === 'closed-loop') return closedLoopTrace(w, opts);
      const source = openTrace(w.path, { format: traceFormat(w), dataPath: w.dataPath, timeScale: w.timeScale, maxRequests: w.maxRequests, blockSizeTokens: opts.blockSizeTokens });
      const targets = resolvedTargets(source.goodputSloTargets);
      return { source, ...traceSize(w), ...(targets !== undefined ? { goodputSloTargets: { from: 'header' as const, targets } } : {}) };
    }
  }
}

/**
 * The requests {@link openSizedWorkload} would count, without a request stream (no trace file
 * is opened): what a run's memory estimate needs before the run is built.
 */
export function sizeWorkload(w: WorkloadSource, opts: OpenWorkloadOptions): Omit<OpenedWorkload, 'source'> {
  switch (w.kind) {
    case 'synthetic':
      return { requests: w.numRequests };
    case 'spec':
      return { requests: specRequests(w, readSpec(w, opts)) };
    case 'trace':
      return traceSize(w);
  }
}

type SpecWorkload = Extract<WorkloadSource, { kind: 'spec' }>;
type TraceWorkload = Extract<WorkloadSource, { kind: 'trace' }>;

function readSpec(w: SpecWorkload, opts: OpenWorkloadOptions): LoadedSpec {
  if (w.path !== undefined) opts.onPhase?.({ kind: 'read-spec', path: w.path });
  // The run's horizon too: windows that all open after it would leave a run of 0 requests.
  const load = { runHorizonUs: opts.horizonUs, runNumRequests: w.numRequests, runModel: opts.adapters?.model };
  const spec = w.path !== undefined ? loadWorkloadSpec(w.path, load) : parseWorkloadSpec(w.spec, undefined, load);
  // Each client is a generator with its own streams: refuse a mix of more than a real study has.
  if (spec.clients.length > RUN_LIMITS.maxSpecClients)
    throw new RunLimitError([{ path: ['clients'], file: w.path ?? 'workload spec', expected: `at most ${RUN_LIMITS.maxSpecClients} clients`, found: String(spec.clients.length) }]);
  if (opts.adapters !== undefined) checkAdapterReferences(spec, w.path ?? 'workload spec', opts.adapters);
  return spec;
}

function specRequests(w: SpecWorkload, spec: LoadedSpec): number | undefined {
  // An inference_perf spec states its size through its stages (follow-up rounds included).
  const requests = w.numRequests ?? spec.num_requests ?? spec.inferencePerf?.plan.plannedRequests;
  if (w.numRequests === undefined && requests !== undefined && requests > RUN_LIMITS.maxRequests)
    throw new RunLimitError([{ path: ['num_requests'], file: w.path ?? 'workload spec', expected: `at most ${RUN_LIMITS.maxRequests} requests`, found: String(requests) }]);
  return requests;
}

/**
 * BLIS's closed-loop session replay of a TraceV2 pair: the trace's rows (at most --max-requests),
 * sessions re-sent round by round. Its size is the rows read: follow-ups replace recorded rows.
 */
function closedLoopTrace(w: TraceWorkload, opts: OpenWorkloadOptions): OpenedWorkload {
  // Only TraceV2 has sessions (session_id, round_index): a Mooncake or Azure trace is refused by name.
  const format = traceFormat(w) ?? detectTraceFormat(w.path);
  if (format !== 'tracev2') throw new TraceReadError({ file: w.path, expected: 'a TraceV2 trace for closed-loop session replay (its session_id and round_index columns)', found: format === 'azure' ? 'an Azure trace CSV' : 'a Mooncake JSONL trace' });
  const thinkTime = w.thinkTimeDist !== undefined ? parseThinkTimeDist(w.thinkTimeDist) : w.thinkTimeUs !== undefined && w.thinkTimeUs > 0 ? { type: 'constant' as const, valueUs: w.thinkTimeUs } : undefined;
  const source = new ClosedLoopTraceSource(w.path, {
    seed: opts.seed,
    blockSizeTokens: opts.blockSizeTokens,
    ...(w.dataPath !== undefined ? { dataPath: w.dataPath } : {}),
    ...(w.maxRequests !== undefined ? { maxRequests: w.maxRequests } : {}),
    ...(opts.horizonUs !== undefined ? { horizonUs: opts.horizonUs } : {}),
    ...(thinkTime !== undefined ? { thinkTime } : {}),
  });
  const warnings = source.sessions === 0 ? ['--session-mode closed-loop: the trace has no session rows (session_id); every request is sent at its recorded time'] : [];
  const targets = resolvedTargets(source.goodputSloTargets);
  return { source, ...traceSize(w), warnings, ...(targets !== undefined ? { goodputSloTargets: { from: 'header' as const, targets } } : {}) };
}

function traceFormat(w: TraceWorkload): TraceWorkload['format'] {
  return w.dataPath !== undefined ? 'tracev2' : w.format;
}

/** A trace's request cap, else its own length: counted, or its size over its first lines' length. */
function traceSize(w: TraceWorkload): Omit<OpenedWorkload, 'source'> {
  if (w.maxRequests !== undefined) return { requests: w.maxRequests };
  const format = traceFormat(w);
  const est = estimateTraceRecords(w.path, { format: format ?? detectTraceFormat(w.path), dataPath: w.dataPath });
  if (est === undefined) return { requests: undefined };
  return { requests: est.records, requestsFrom: `${est.exact ? 'the records of' : 'estimated from the size of'} ${est.file}, ${formatBytes(est.bytes)}` };
}
