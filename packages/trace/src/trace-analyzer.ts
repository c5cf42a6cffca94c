import { PdAnalysis } from './pd-analysis.js';
import { nearestRank, sortedCopy } from './percentile.js';
import {
  ANOMALY_KINDS,
  type AnomalyKind,
  type AnomalyRecord,
  type HeaderRecord,
  type OutcomeRecord,
  type OutcomeStatus,
  type RoutingRecord,
  type TraceRecord,
} from './records.js';
import { ScaleAnalysis } from './scale-analysis.js';
import type { ClassLatencies } from './tail-latency.js';
import { TopN } from './top-n.js';
import { type DecisionContext, type JudgedDecision, decisionContext } from './decision-context.js';
import { AUDIT_CAPACITY, sampleLevel, spreadSample } from './decision-sample.js';

export interface ClassStats extends ClassLatencies {
  readonly ttftUs: number[];
  readonly ids: string[];
  readonly e2eUs: number[];
  completed: number;
  withTarget: number;
  met: number;
}

export interface AnomalyTally {
  count: number;
  /** The first few, in trace order. */
  examples: AnomalyRecord[];
}

const EXAMPLES_KEPT = 5;
const WORST_KEPT = 3;

/**
 * Aggregates a decision trace, record by record, into what the summary and the anomaly report
 * quote. It reads nothing but records, so it gives the same answers live (fed by the recorder)
 * and offline (fed by {@link readTraceFile}): that is what makes a summary grounded in its trace.
 * Memory: a context per routed request still in flight, one TTFT per completed request, and
 * fixed-size example lists.
 */
export class TraceAnalyzer {
  header: HeaderRecord | undefined;
  endUs = 0;
  readonly kinds = new Map<string, number>();

  admitted = 0;
  rejected = 0;
  readonly rejectReasons = new Map<string, number>();

  decisions = 0;
  readonly scoredBy = { policy: 0, load: 0 };
  regretSum = 0;
  regretPositive = 0;
  /** LoRA: routings of adapter requests; to an instance without the adapter while another held it; where none held it. */
  readonly adapterRoutes = { total: 0, coldPastWarm: 0, coldEverywhere: 0 };
  regretMax = 0;
  regretMaxSeq = -1;
  /** Routing decisions per instance index. */
  readonly routedTo: number[] = [];
  /**
   * Under P/D, the instances the routing records' pools named (the decode pool): the instances a
   * decision could have chosen. Undefined when the router always saw every instance.
   */
  routePool: Set<number> | undefined;
  /** Decisions that sent a request away from an instance holding more of its prefix. */
  routedAway = 0;

  readonly statuses = new Map<OutcomeStatus, number>();
  completed = 0;
  outputTokens = 0;
  promptBlocks = 0;
  hitBlocks = 0;
  /** Missed prompt blocks that another instance held when the request was routed. */
  awayMissBlocks = 0;
  preemptions = 0;
  preemptedRequests = 0;
  /** TTFT sums and counts of completed requests by decision quality. */
  readonly ttftRegret = { positive: 0, positiveN: 0, zero: 0, zeroN: 0 };
  readonly ttftAway = { away: 0, awayN: 0, local: 0, localN: 0 };
  sloMisses = 0;
  sloMissesAfterRegret = 0;
  sloMissesAfterAway = 0;
  readonly classes = new Map<string, ClassStats>();

  readonly anomalies = new Map<AnomalyKind, AnomalyTally>();

  batches = 0;
  batchPrefillTokens = 0;
  batchDecodeTokens = 0;
  /** Disaggregation, prefill routing and KV transfers (P/D runs). */
  readonly pd = new PdAnalysis();
  /** Autoscaler evaluations and actions, and replica lifecycle transitions (autoscaled runs). */
  readonly scale = new ScaleAnalysis();

  readonly worstTtft = new TopN<JudgedDecision>(WORST_KEPT);
  readonly worstRegret = new TopN<JudgedDecision>(WORST_KEPT);
  /** A deterministic pseudo-random sample of decisions (by seq), with their outcomes. */
  audit: JudgedDecision[] = [];
  private auditLevel = 0;

  private readonly inFlight = new Map<string, DecisionContext>();

  constructor() {
    for (const k of ANOMALY_KINDS) this.anomalies.set(k, { count: 0, examples: [] });
  }

  add(r: TraceRecord): void {
    this.kinds.set(r.t, (this.kinds.get(r.t) ?? 0) + 1);
    if (r.t !== 'header' && r.ts > this.endUs) this.endUs = r.ts;
    switch (r.t) {
      case 'header':
        this.header = r;
        break;
      case 'admit':
        if (r.admit) this.admitted++;
        else {
          this.rejected++;
          this.rejectReasons.set(r.reason, (this.rejectReasons.get(r.reason) ?? 0) + 1);
        }
        break;
      case 'route':
        this.route(r);
        break;
      case 'outcome':
        this.outcome(r);
        this.pd.outcome(r);
        break;
      case 'disaggregation':
        this.pd.disaggregation(r);
        break;
      case 'prefill_routing':
        this.pd.prefillRouting(r);
        break;
      case 'kv_transfer':
        this.pd.kvTransfer(r);
        break;
      case 'anomaly': {
        const a = this.anomalies.get(r.kind);
        if (a !== undefined) {
          a.count++;
          if (a.examples.length < EXAMPLES_KEPT) a.examples.push(r);
        }
        break;
      }
      case 'batch':
        this.batches++;
        this.batchPrefillTokens += r.prefill_tokens;
        this.batchDecodeTokens += r.decode;
        break;
      case 'scale':
        this.scale.scale(r);
        break;
      case 'scale_action':
        this.scale.scaleAction(r);
        break;
      case 'instance_state':
        this.scale.instanceState(r);
        break;
      default:
        break;
    }
  }

  private route(r: RoutingRecord): void {
    this.decisions++;
    if (r.adapter !== undefined) this.adapterRoute(r);
    this.scoredBy[r.scored]++;
    while (this.routedTo.length <= r.inst) this.routedTo.push(0);
    this.routedTo[r.inst]++;
    this.regretSum += r.regret;
    if (r.regret > 0) this.regretPositive++;
    if (r.regret > this.regretMax) {
      this.regretMax = r.regret;
      this.regretMaxSeq = r.seq;
    }
    const pool = r.pool;
    if (pool !== undefined) {
      if (this.routePool === undefined) this.routePool = new Set();
      for (const i of pool) this.routePool.add(i);
    }
    const ctx = decisionContext(r);
    if (ctx.pbMax > ctx.chosenPb) this.routedAway++;
    this.inFlight.set(r.id, ctx);
  }

  private outcome(o: OutcomeRecord): void {
    this.statuses.set(o.status, (this.statuses.get(o.status) ?? 0) + 1);
    this.preemptions += o.preemptions;
    if (o.preemptions > 0) this.preemptedRequests++;
    const ctx = this.inFlight.get(o.id);
    if (ctx !== undefined) this.inFlight.delete(o.id);
    if (o.status === 'completed') this.completedOutcome(o, ctx);
    if (ctx === undefined) return;
    const d: JudgedDecision = { ctx, outcome: o };
    if (o.ttft_us !== undefined) this.worstTtft.offer(o.ttft_us, d);
    if (ctx.regret > 0) this.worstRegret.offer(ctx.regret, d);
    this.sample(d);
  }

  private completedOutcome(o: OutcomeRecord, ctx: DecisionContext | undefined): void {
    this.completed++;
    this.outputTokens += o.out ?? 0;
    this.promptBlocks += o.blocks;
    this.hitBlocks += o.hit_blocks;
    const ttft = o.ttft_us ?? 0;
    let c = this.classes.get(o.slo);
    if (c === undefined) {
      c = { ttftUs: [], ids: [], e2eUs: [], completed: 0, withTarget: 0, met: 0 };
      this.classes.set(o.slo, c);
    }
    c.completed++;
    c.ttftUs.push(ttft);
    c.e2eUs.push(o.e2e_us ?? 0);
    c.ids.push(o.id);
    if (o.slo_met !== null) {
      c.withTarget++;
      if (o.slo_met) c.met++;
    }
    if (ctx === undefined) return;
    const away = ctx.pbMax > ctx.chosenPb;
    if (away) this.awayMissBlocks += Math.max(0, Math.min(ctx.pbMax, o.blocks) - o.hit_blocks);
    if (ctx.regret > 0) {
      this.ttftRegret.positive += ttft;
      this.ttftRegret.positiveN++;
    } else {
      this.ttftRegret.zero += ttft;
      this.ttftRegret.zeroN++;
    }
    if (away) {
      this.ttftAway.away += ttft;
      this.ttftAway.awayN++;
    } else {
      this.ttftAway.local += ttft;
      this.ttftAway.localN++;
    }
    if (o.slo_met === false) {
      this.sloMisses++;
      if (ctx.regret > 0) this.sloMissesAfterRegret++;
      if (away) this.sloMissesAfterAway++;
    }
  }

  /**
   * Level sampling: a decision's level is the number of trailing zero bits of a hash of its seq,
   * and those at or above the current level are kept; the level rises when the list fills. The
   * hash keeps the sample from aliasing with periodic policies (round-robin's every N-th).
   */
  private sample(d: JudgedDecision): void {
    if (sampleLevel(d.ctx.seq) < this.auditLevel) return;
    this.audit.push(d);
    if (this.audit.length > 2 * AUDIT_CAPACITY) {
      this.auditLevel++;
      this.audit = this.audit.filter((x) => sampleLevel(x.ctx.seq) >= this.auditLevel);
    }
  }

  /** Up to the audit capacity of sampled decisions, in decision order. */
  auditSample(): JudgedDecision[] {
    return spreadSample(this.audit);
  }

  private adapterRoute(r: RoutingRecord): void {
    const warm = r.warm ?? [];
    const pos = r.pool === undefined ? r.inst : r.pool.indexOf(r.inst);
    const a = this.adapterRoutes;
    a.total++;
    if (warm[pos] === 1) return;
    if (warm.includes(1)) a.coldPastWarm++;
    else a.coldEverywhere++;
  }

  /**
   * Instances the trace names (highest index + 1): the configured count from the header, where
   * requests were routed, under P/D also prefill and decode pods, under autoscaling also every
   * replica with a lifecycle transition.
   */
  get instanceCount(): number {
    let n = this.routedTo.length;
    if (this.routePool !== undefined) for (const i of this.routePool) if (i >= n) n = i + 1;
    return Math.max(n, this.pd.maxInstance + 1, this.scale.maxInstance + 1, this.header?.instances ?? 0);
  }

  /** Instances a routing decision could choose, ascending: the routing pool under P/D, else all seen. */
  routeMembers(): number[] {
    if (this.routePool !== undefined) return [...this.routePool].sort((x, y) => x - y);
    return this.routedTo.map((_, i) => i);
  }

  /** Requests routed but without an outcome yet. */
  get unresolved(): number {
    return this.inFlight.size;
  }

  /** Requests whose first record carried this status. */
  status(s: OutcomeStatus): number {
    return this.statuses.get(s) ?? 0;
  }

  /** SLO class names in a stable order. */
  classNames(): string[] {
    return [...this.classes.keys()].sort();
  }

  /** p50 and p99 (nearest rank) of a class's TTFT, or of every completed request when `slo` is undefined. */
  ttftPercentiles(slo?: string): { p50: number; p99: number; n: number } {
    const all: number[] = [];
    for (const [name, c] of this.classes) if (slo === undefined || name === slo) for (const v of c.ttftUs) all.push(v);
    const s = sortedCopy(all);
    return { p50: nearestRank(s, 50), p99: nearestRank(s, 99), n: s.length };
  }

  e2ePercentiles(): { p50: number; p99: number } {
    const all: number[] = [];
    for (const c of this.classes.values()) for (const v of c.e2eUs) all.push(v);
    const s = sortedCopy(all);
    return { p50: nearestRank(s, 50), p99: nearestRank(s, 99) };
  }
}

/** Folds records (from {@link readTraceFile} or {@link parseTrace}) into a fresh analyzer. */
export function analyzeTrace(records: Iterable<TraceRecord>): TraceAnalyzer {
  const a = new TraceAnalyzer();
  for (const r of records) a.add(r);
  return a;
}
