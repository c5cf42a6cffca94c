import type { SimRequest } from '@blis/engine';
import type { StepBatch } from '@blis/latency';
import type { AdmissionDecision, DisaggregationDecision, RouterState, RoutingDecision } from '@blis/policies';
import { type AnomalyReport, buildAnomalyReport } from './anomaly-report.js';
import { AnomalyDetector } from './anomaly-detector.js';
import type { DecisionObserver, KvTransferKind, PdTransferRecord, ScaleAction, ScaleEvaluation } from './decision-observer.js';
import { formatRecord } from './json-line.js';
import { disaggregationRecord, encodeRoutingRecord, kvTransferRecord, prefillRoutingRecord } from './pd-records.js';
import { type OutcomeRecord, type RoutingRecord, TRACE_FORMAT_VERSION, type TraceRecord } from './records.js';
import { routingFields } from './routing-fields.js';
import { type SummaryOptions, summarizeTrace } from './summary.js';
import { detectTailBlowups } from './tail-latency.js';
import { TraceAnalyzer } from './trace-analyzer.js';
import type { TraceSink } from './trace-sink.js';

export interface TraceRecorderOptions {
  /**
   * `decisions`: admission, priority, routing (and P/D's disaggregation, prefill routing and KV
   * transfers), autoscaler evaluations and actions, replica lifecycle transitions, outcomes,
   * anomalies. `full` adds queue and batch events.
   */
  level: 'decisions' | 'full';
  /** Top candidates to record per routing decision (0 = none; regret is recorded regardless). */
  counterfactualK?: number;
  /** Where lines go; without one only the in-memory aggregates are kept. */
  sink?: TraceSink;
  /** Run-level TTFT / E2E targets in µs (0 = none); a request's own TTFT target wins. */
  sloTtftUs?: number;
  sloE2eUs?: number;
  /** p99/p50 TTFT ratio above which an SLO class counts as a tail-latency blowup (default 5). */
  tailRatioThreshold?: number;
  /** KV thrashing window, µs (default 1 s). */
  kvThrashWindowUs?: number;
  /**
   * Scale oscillation window, µs (default 60 s): an applied scale action reversing its scaling
   * group's previous one within it is an oscillation.
   */
  scaleCooldownUs?: number;
  /** Policy names for the header (admission, priority, routing, scheduler, ...). */
  policies?: Record<string, string>;
  /** Instances configured at the start, for the summary (routing may leave some unused). */
  instances?: number;
}

/** What a finished recording adds to a result. */
export interface TraceReport {
  anomalies: AnomalyReport;
  /** Present when a summary was asked for. */
  trace_summary?: string;
}

export const DEFAULT_TAIL_RATIO_THRESHOLD = 5;
export const DEFAULT_KV_THRASH_WINDOW_US = 1_000_000;
export const DEFAULT_SCALE_COOLDOWN_US = 60_000_000;

function prefixHex(hashes: ArrayLike<number>): string {
  return hashes.length === 0 ? '' : (hashes[0] >>> 0).toString(16).padStart(8, '0');
}

/**
 * Records a run's decisions as they happen: each becomes one record, streamed to the sink and
 * folded into a {@link TraceAnalyzer}; anomalies are detected on the fly. Pass it to the
 * cluster as its `observer`, then call {@link finish} once the run is over.
 */
export class TraceRecorder implements DecisionObserver {
  readonly analyzer = new TraceAnalyzer();
  readonly level: 'decisions' | 'full';
  private readonly sink: TraceSink | undefined;
  private readonly k: number;
  private readonly sloTtftUs: number;
  private readonly sloE2eUs: number;
  private readonly tailRatio: number;
  private readonly detector: AnomalyDetector;
  private seq = 0;
  private finished = false;
  /** Batch formations: only at `full`, so a `decisions` trace costs nothing per engine step. */
  readonly onStep?: (now: number, stepTime: number, batch: StepBatch, instance: number) => void;

  constructor(opts: TraceRecorderOptions) {
    this.level = opts.level;
    this.sink = opts.sink;
    this.k = opts.counterfactualK ?? 0;
    this.sloTtftUs = opts.sloTtftUs ?? 0;
    this.sloE2eUs = opts.sloE2eUs ?? 0;
    this.tailRatio = opts.tailRatioThreshold ?? DEFAULT_TAIL_RATIO_THRESHOLD;
    this.detector = new AnomalyDetector(
      { kvThrashWindowUs: opts.kvThrashWindowUs ?? DEFAULT_KV_THRASH_WINDOW_US, scaleCooldownUs: opts.scaleCooldownUs ?? DEFAULT_SCALE_COOLDOWN_US },
      (a) => this.emit(a),
    );
    if (opts.level === 'full') {
      this.onStep = (now, stepTime, batch, instance) =>
        this.emit({ t: 'batch', ts: now, inst: instance, dt: stepTime, prefill: batch.prefillCount, prefill_tokens: batch.prefillTokens, decode: batch.decodeCount });
    }
    this.emit({
      t: 'header',
      version: TRACE_FORMAT_VERSION,
      level: opts.level,
      k: this.k,
      slo_ttft_us: this.sloTtftUs,
      slo_e2e_us: this.sloE2eUs,
      tail_ratio: this.tailRatio,
      policies: { ...(opts.policies ?? {}) },
      ...(opts.instances !== undefined ? { instances: opts.instances } : {}),
    });
  }

  private emit(r: TraceRecord): void {
    if (this.sink !== undefined) this.sink.write(formatRecord(r));
    this.analyzer.add(r);
  }

  onAdmission(req: SimRequest, decision: AdmissionDecision, state: RouterState, now: number): void {
    const v = req.view;
    this.emit({
      t: 'admit',
      ts: now,
      id: v.id,
      tenant: v.tenantId,
      slo: v.sloClass,
      admit: decision.admit,
      reason: decision.reason,
      in_flight: state.globalInFlight,
      rate: state.recentRate,
      saturation: state.saturation,
    });
  }

  onPriority(req: SimRequest, score: number, now: number): void {
    this.emit({ t: 'priority', ts: now, id: req.view.id, score });
  }

  onRouting(req: SimRequest, decision: RoutingDecision, state: RouterState, now: number): void {
    const v = req.view;
    const hashes = v.blockHashes;
    const f = routingFields(decision, state, hashes, now, this.k);
    const r: RoutingRecord = {
      t: 'route',
      seq: this.seq++,
      ts: now,
      id: v.id,
      tenant: v.tenantId,
      slo: v.sloClass,
      in: v.inputTokens,
      blocks: hashes.length,
      prefix: prefixHex(hashes),
      ...f.fields,
      topk: f.topk,
    };
    if (f.pool !== undefined) r.pool = f.pool;
    const adapter = v.adapter;
    if (adapter !== undefined && adapter !== '') {
      r.adapter = adapter;
      r.warm = state.instances.map((x) => (x.residentAdapters?.has(adapter) === true ? 1 : 0));
    }
    this.emit(r);
  }

  onDisaggregation(req: SimRequest, decision: DisaggregationDecision, decodeInstance: number, now: number): void {
    this.emit(disaggregationRecord(req, decision, decodeInstance, now));
  }

  onPrefillRouting(req: SimRequest, decision: RoutingDecision, state: RouterState, now: number): void {
    this.emit(prefillRoutingRecord(req, decision, state, now, this.k));
  }

  onEncodeRouting(req: SimRequest, decision: RoutingDecision, state: RouterState, now: number): void {
    this.emit(encodeRoutingRecord(req, decision, state, now, this.k));
  }

  onPdTransfer(record: PdTransferRecord, now: number): void {
    this.emit(kvTransferRecord(record, now));
  }

  onQueued(req: SimRequest, now: number, instance: number): void {
    this.detector.onQueued(req, instance);
    if (this.level === 'full') this.emit({ t: 'queued', ts: now, id: req.view.id, inst: instance, prio: req.view.priority });
  }

  onScheduled(req: SimRequest, now: number, instance: number): void {
    if (this.level === 'full') this.emit({ t: 'scheduled', ts: now, id: req.view.id, inst: instance, prio: req.view.priority, hit_blocks: req.cacheHitBlocks });
    this.detector.onScheduled(req, now, instance);
  }

  onPreempted(req: SimRequest, now: number, instance: number): void {
    if (this.level === 'full') this.emit({ t: 'preempted', ts: now, id: req.view.id, inst: instance });
    this.detector.onPreempted(req, instance);
  }

  onCompleted(req: SimRequest, now: number, e2eUs: number): void {
    this.detector.onCompleted(req, now);
    const spec = req.spec;
    const net = spec.networkDelayUs;
    const ttft = req.ttft + net;
    const e2e = e2eUs + net;
    const target = spec.sloTargetUs > 0 ? spec.sloTargetUs : this.sloTtftUs;
    const applies = target > 0 || this.sloE2eUs > 0;
    const met = applies ? (target <= 0 || ttft <= target) && (this.sloE2eUs <= 0 || e2e <= this.sloE2eUs) : null;
    this.emit({
      t: 'outcome',
      ts: now,
      id: spec.id,
      status: 'completed',
      slo: spec.sloClass,
      inst: req.instance,
      ttft_us: ttft,
      e2e_us: e2e,
      out: req.outputTokens,
      blocks: spec.blockHashes.length,
      hit_blocks: req.cacheHitBlocks,
      preemptions: req.preemptions,
      target_us: target,
      slo_met: met,
    });
  }

  onDropped(req: SimRequest, now: number, reason: 'unservable' | 'rejected' | 'timed_out' | 'shed' | 'drained', detail?: string): void {
    this.detector.onLeft(req);
    const spec = req.spec;
    const rec: OutcomeRecord = {
      t: 'outcome',
      ts: now,
      id: spec.id,
      status: reason,
      slo: spec.sloClass,
      inst: reason === 'rejected' || reason === 'shed' ? -1 : req.instance,
      blocks: spec.blockHashes.length,
      hit_blocks: req.cacheHitBlocks,
      preemptions: req.preemptions,
      target_us: spec.sloTargetUs > 0 ? spec.sloTargetUs : this.sloTtftUs,
      slo_met: null,
    };
    if (detail !== undefined) rec.reason = detail;
    this.emit(rec);
  }

  onScaleEvaluation(e: ScaleEvaluation, now: number): void {
    this.emit({
      t: 'scale',
      ts: now,
      pool: e.pool,
      policy: e.policy,
      routable: e.routable,
      pending: e.pending,
      draining: e.draining,
      avg_q: e.avgQueueDepth,
      avg_kv: e.avgKvUtilization,
      waiting: e.waitingRequests,
      rate: e.requestRate,
      signals: { ...e.signals },
      proposed: e.proposed,
      delta: e.delta,
      outcome: e.outcome,
      reason: e.reason,
    });
  }

  /** Writes the action, then checks it for a reversal of its group's previous action. */
  onScaleAction(action: ScaleAction, now: number): void {
    this.emit({ t: 'scale_action', ts: now, pool: action.pool, before: action.before, after: action.after, ids: [...action.instances], unplaced: action.unplaced });
    this.detector.onScaleAction(action.pool, action.before, action.after, now);
  }

  onInstanceState(instance: number, id: string, state: string, now: number): void {
    this.emit({ t: 'instance_state', ts: now, inst: instance, id, state });
  }

  onKvTransfer(blockHash: number, kind: KvTransferKind, now: number, instance: number, storedAtUs?: number): void {
    this.detector.onKvTransfer(blockHash, kind, now, instance, storedAtUs);
  }

  /**
   * Ends the recording at `endUs` (default: the last record's time): detects tail-latency
   * blowups, writes the closing records, closes the sink, and returns what the result gains.
   */
  finish(endUs?: number, summary?: SummaryOptions): TraceReport {
    if (!this.finished) {
      this.finished = true;
      const end = Math.max(endUs ?? 0, this.analyzer.endUs);
      for (const a of detectTailBlowups(this.analyzer.classes, this.tailRatio, end)) this.emit(a);
      this.emit({ t: 'end', ts: end });
      this.sink?.close();
    }
    const report: TraceReport = { anomalies: buildAnomalyReport(this.analyzer) };
    if (summary !== undefined) report.trace_summary = summarizeTrace(this.analyzer, summary);
    return report;
  }
}
