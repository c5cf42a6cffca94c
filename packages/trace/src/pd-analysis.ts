import type { DisaggregationRecord, KvTransferRecord, OutcomeRecord, PrefillRoutingRecord } from './records.js';

/** A completed disaggregated request and how much of its TTFT its KV transfer took. */
export interface TransferShare {
  id: string;
  transferUs: number;
  ttftUs: number;
}

const count = (a: number[], i: number) => {
  while (a.length <= i) a.push(0);
  a[i]++;
};

/**
 * The P/D part of a trace: the decider's answers, prefill routing and KV transfers, and how each
 * transfer weighs in its request's TTFT. Like the rest of the analyzer it reads records only,
 * so a trace file gives the same figures as the live run. Memory: the transfer of each
 * disaggregated request until its outcome, one duration per transfer and one TTFT per
 * completed disaggregated request.
 */
export class PdAnalysis {
  /** Requests the decider saw (one disaggregation record each). */
  requests = 0;
  disaggregated = 0;
  local = 0;
  readonly reasons = new Map<string, number>();
  /** Decode pod chosen for each request (disaggregated or not), by instance index. */
  readonly decodeChosen: number[] = [];

  prefillDecisions = 0;
  /** Prefill parts sent to each instance, and the prefill pool as the records name it. */
  readonly prefillRoutedTo: number[] = [];
  readonly prefillPool = new Set<number>();
  prefillRegretPositive = 0;
  prefillRegretSum = 0;
  prefillRegretMax = 0;

  transfers = 0;
  transferBlocks = 0;
  readonly transferUs: number[] = [];
  /** Completed disaggregated requests whose transfer is known, and their client-observed TTFT. */
  judged = 0;
  readonly ttftUs: number[] = [];
  /** Of the judged, those whose transfer took more than half their TTFT. */
  transferBound = 0;
  /** The judged request whose transfer took the largest share of its TTFT (earliest on ties). */
  worst: TransferShare | undefined;
  /** Highest instance index any P/D record names. */
  maxInstance = -1;

  private readonly pending = new Map<string, number>();

  /** Whether the trace has any P/D record. */
  get active(): boolean {
    return this.requests > 0 || this.prefillDecisions > 0 || this.transfers > 0;
  }

  private saw(inst: number): void {
    if (inst > this.maxInstance) this.maxInstance = inst;
  }

  disaggregation(r: DisaggregationRecord): void {
    this.requests++;
    if (r.disaggregate) this.disaggregated++;
    else this.local++;
    this.reasons.set(r.reason, (this.reasons.get(r.reason) ?? 0) + 1);
    count(this.decodeChosen, r.decode_inst);
    this.saw(r.decode_inst);
  }

  prefillRouting(r: PrefillRoutingRecord): void {
    this.prefillDecisions++;
    count(this.prefillRoutedTo, r.inst);
    this.saw(r.inst);
    for (const i of r.pool) {
      this.prefillPool.add(i);
      this.saw(i);
    }
    this.prefillRegretSum += r.regret;
    if (r.regret > 0) this.prefillRegretPositive++;
    if (r.regret > this.prefillRegretMax) this.prefillRegretMax = r.regret;
  }

  kvTransfer(r: KvTransferRecord): void {
    this.transfers++;
    this.transferBlocks += r.blocks;
    this.transferUs.push(r.dur_us);
    this.pending.set(r.id, r.dur_us);
    this.saw(r.prefill_inst);
    this.saw(r.decode_inst);
  }

  /** A request's outcome: a completed one whose KV was transferred is judged transfer-bound or not. */
  outcome(o: OutcomeRecord): void {
    const transferUs = this.pending.get(o.id);
    if (transferUs === undefined) return;
    this.pending.delete(o.id);
    if (o.status !== 'completed' || o.ttft_us === undefined) return;
    const ttftUs = o.ttft_us;
    this.judged++;
    this.ttftUs.push(ttftUs);
    if (2 * transferUs > ttftUs) this.transferBound++;
    const w = this.worst;
    // Compare shares by cross-multiplication: no division by a zero TTFT.
    if (w === undefined || transferUs * w.ttftUs > w.transferUs * ttftUs) this.worst = { id: o.id, transferUs, ttftUs };
  }

  /** More than a fifth of the judged requests spent more than half their TTFT in transfer. */
  get isTransferBound(): boolean {
    return this.transferBound > 0 && 5 * this.transferBound > this.judged;
  }
}
